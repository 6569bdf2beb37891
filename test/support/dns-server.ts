import { createSocket } from 'node:dgram';
import { promises as dns, type LookupAddress } from 'node:dns';
import { isIPv4 } from 'node:net';
import type { HostResolver } from '../../src/features/webhooks/webhook-destinations.js';

const A = 1;
const AAAA = 28;

/** An IPv4 or IPv6 address as the bytes a DNS answer carries. */
function addressBytes(address: string): Buffer {
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const given = [...groups(head), ...groups(tail)];
  const all = address.includes('::') ? [...groups(head), ...Array<string>(8 - given.length).fill('0'), ...groups(tail)] : given;
  return Buffer.from(all.flatMap((group) => [parseInt(group, 16) >> 8, parseInt(group, 16) & 0xff]));
}

/**
 * A real DNS server on a free loopback UDP port answering A and AAAA queries from `records` (name → addresses;
 * any other name is NXDOMAIN), and a resolver that asks it, in the shape of the system resolver's answers.
 */
export async function startDnsServer(records: Record<string, string[]>) {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    let at = 12;
    const labels: string[] = [];
    while (query[at]! > 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('ascii'));
      at += query[at]! + 1;
    }
    const questionEnd = at + 5;
    const type = query.readUInt16BE(at + 1);
    const name = labels.join('.').toLowerCase();
    const known = records[name];
    const wanted = (known ?? []).filter((address) => (type === A ? isIPv4(address) : type === AAAA && !isIPv4(address)));
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(wanted.length, 6);
    const answers = wanted.map((address) => {
      const data = addressBytes(address);
      const answer = Buffer.alloc(12);
      answer.writeUInt16BE(0xc00c, 0);
      answer.writeUInt16BE(type, 2);
      answer.writeUInt16BE(1, 4);
      answer.writeUInt32BE(0, 6);
      answer.writeUInt16BE(data.length, 10);
      return Buffer.concat([answer, data]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const resolver = new dns.Resolver({ timeout: 1_000, tries: 2 });
  resolver.setServers([`127.0.0.1:${socket.address().port}`]);

  const resolve: HostResolver = (hostname, options, callback) => {
    const only = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const ask = (family: 4 | 6) =>
      only && only !== family ? Promise.resolve([]) : (family === 4 ? resolver.resolve4(hostname) : resolver.resolve6(hostname)).catch(() => [] as string[]);
    void Promise.all([ask(4), ask(6)]).then(([v4, v6]) => {
      const found: LookupAddress[] = [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
      if (found.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, found);
    });
  };
  return { resolve, stop: () => socket.close() };
}
