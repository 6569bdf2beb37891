import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectionsByPeer } from '../../src/platform/http/kernel-connections.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { nextLoopbackIp } from '../support/loopback.js';
import { startStack } from '../support/stack.js';

const CAP = 20;
let stack: Awaited<ReturnType<typeof startStack>>;
let held: Socket[] = [];
beforeAll(async () => {
  stack = await startStack({ MAX_CONNECTIONS_PER_IP: CAP });
});
afterEach(() => {
  for (const socket of held) socket.destroy();
  held = [];
});
afterAll(() => stack?.stop());

type Held = { socket: Socket; closed: boolean; received: string };

/** GET /healthz on a connection of its own, from `localAddress`, closed after the answer. */
function healthzOnNewConnection(localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: stack.app.port, path: '/healthz', localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Opens `count` connections from `localAddress` that each send a partial request line and then nothing;
 * resolves once the server has closed `closedByServer` of them (those past the cap).
 */
async function openHalfRequests(count: number, localAddress: string, closedByServer: number): Promise<Held[]> {
  const port = stack.app.port;
  const opened = Array.from({ length: count }, () => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    const entry: Held = { socket, closed: false, received: '' };
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHo'));
    socket.on('data', (data) => (entry.received += data.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      entry.closed = true;
    });
    held.push(socket);
    return entry;
  });
  await eventually(`${closedByServer} of ${count} connections closed`, () => opened.filter((c) => c.closed).length >= closedByServer);
  return opened;
}

describe('connections per client address', () => {
  it('answers connections past the cap from one address with 429 and closes them, while another address is answered at once', async () => {
    const ip = nextLoopbackIp();
    const conns = await openHalfRequests(CAP * 2, ip, CAP);
    expect(conns.filter((c) => !c.closed)).toHaveLength(CAP);
    expect(conns.filter((c) => c.closed)).toHaveLength(CAP);
    // Each refused connection was answered before it was closed, not reset: a 429 that needs nothing of its request.
    for (const refused of conns.filter((c) => c.closed)) {
      const [head, body] = refused.received.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
      expect(head).toMatch(/\r\nRetry-After: 5\r\n/);
      expect(JSON.parse(body!)).toEqual({
        error: {
          code: 'rate_limited',
          message: `Too many open connections from this address (at most ${CAP}); close one before opening another.`,
          details: [],
          retry_after_seconds: 5,
          limit: CAP,
        },
      });
    }
    expect(conns.filter((c) => !c.closed).every((c) => c.received === '')).toBe(true);

    // Answered although the first address is at its cap (were it held up, this would time out).
    const health = await stack.api.get('/healthz', { localAddress: '127.0.0.2' });
    expect(health.status).toBe(200);

    // Room made by closing some is usable again, once the address at its cap is rechecked (each second).
    for (const c of conns.filter((c) => !c.closed).slice(0, 5)) c.socket.destroy();
    // The kernel no longer lists them once the server has closed its ends (what the recheck reads)...
    await eventually('five connections gone from the kernel table', () => connectionsByPeer(stack.app.port)?.get(ip) === CAP - 5);
    // ...and an address found at its cap is refused for a second before the kernel is asked again: wait it
    // out (the server's own clock; a busy machine only makes the wait longer, never too short).
    await new Promise((r) => setTimeout(r, 1_200));
    const again: Held[] = [];
    for (let i = 0; i < 5; i++) {
      again.push(...(await openHalfRequests(1, ip, 0)));
      // The server accepts connections in order: once a later one is answered, this one has been counted.
      expect(await healthzOnNewConnection('127.0.0.2')).toBe(200);
    }
    again.push(...(await openHalfRequests(1, ip, 1)));
    expect(again.map((c) => c.closed)).toEqual([false, false, false, false, false, true]);
  });

  it('does not hold closed connections against an address that opens many in turn', async () => {
    const ip = nextLoopbackIp();
    const statuses: number[] = [];
    // Each request on a connection of its own, closed after the answer: far more than the cap in all.
    for (let i = 0; i < CAP * 3; i++) statuses.push(await healthzOnNewConnection(ip));
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('answers a WebSocket upgrade past the cap with 429 and Retry-After, before the upgrade is read', async () => {
    const ip = nextLoopbackIp();
    const conns = await openHalfRequests(CAP, ip, 0);
    // Connected, so accepted before the upgrade's connection.
    await eventually('every connection up', () => conns.every((c) => !c.socket.connecting));
    const refused = await EventSocket.open(stack.baseUrl, '/api/v1/spectator/stream', { localAddress: ip }).then(
      () => {
        throw new Error('the upgrade was accepted');
      },
      (error: { status?: number; headers?: Record<string, string>; body?: { error: { code: string } }; message: string }) => error,
    );
    expect(refused.status, refused.message).toBe(429);
    expect(refused.headers!['retry-after']).toBe('5');
    expect(refused.body!.error.code).toBe('rate_limited');
  });
});
