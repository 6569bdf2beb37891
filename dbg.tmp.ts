import { connect, type Socket } from 'node:net';
import { connectionsByPeer } from './src/http/kernel-connections.js';
import { startStack } from './test/support/stack.js';
const stack = await startStack({ MAX_CONNECTIONS_PER_IP: 20 });
const socks: { s: Socket; closed: boolean }[] = [];
for (let i = 0; i < 40; i++) {
  const s = connect({ host: '127.0.0.1', port: stack.app.port, localAddress: '127.0.0.9' });
  const e = { s, closed: false };
  s.on('connect', () => s.write('GET /healthz HTTP/1.1\r\nHo'));
  s.on('error', () => {}); s.on('close', () => { e.closed = true; });
  socks.push(e);
}
await new Promise((r) => setTimeout(r, 500));
console.log('open', socks.filter((e) => !e.closed).length, connectionsByPeer(stack.app.port));
for (const e of socks.filter((e) => !e.closed).slice(0, 5)) e.s.destroy();
await new Promise((r) => setTimeout(r, 1200));
console.log('after destroy', connectionsByPeer(stack.app.port), (stack.app.http as any).connectionCap.counts, (stack.app.http as any).connectionCap.atCapSince);
const s = connect({ host: '127.0.0.1', port: stack.app.port, localAddress: '127.0.0.9' });
let closed = false; s.on('close', () => closed = true); s.on('error', () => {});
await new Promise((r) => setTimeout(r, 300));
console.log('new closed?', closed, (stack.app.http as any).connectionCap.counts);
for (const e of socks) e.s.destroy(); s.destroy();
await stack.stop();
