import { BlockList, isIP, SocketAddress } from 'node:net';

/** A range webhooks may not reach: its network, prefix length, and what an address in it is (said to the agent). */
type Range = readonly [network: string, bits: number, kind: string];

const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 8, 'a "this network" address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved (IETF protocol) address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a reserved (benchmarking) address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

/**
 * The IPv6 ranges, more specific first. Every form that carries an IPv4 address (IPv4-compatible, -mapped,
 * -translated, NAT64, 6to4, Teredo) is refused whole: what it reaches is decided by a translator or by the
 * host's own stack, not by the address; an agent writes a public IPv4 destination as IPv4. Last, whatever
 * lies outside global unicast (2000::/3), where no public address is allocated.
 */
const IPV6_RANGES: readonly Range[] = [
  ['::', 128, 'the unspecified address'],
  ['::1', 128, 'the loopback address'],
  ['::', 96, 'an IPv4-compatible IPv6 address'],
  ['::ffff:0:0', 96, 'an IPv4-mapped IPv6 address'],
  ['::ffff:0:0:0', 96, 'an IPv4-translated IPv6 address'],
  ['64:ff9b::', 96, 'a NAT64 address'],
  ['64:ff9b:1::', 48, 'a NAT64 (local-use) address'],
  ['100::', 64, 'a discard-only address'],
  ['2001::', 32, 'a Teredo address'],
  ['2001:2::', 48, 'a reserved (benchmarking) address'],
  ['2001:db8::', 32, 'a documentation address'],
  ['2002::', 16, 'a 6to4 address'],
  ['3fff::', 20, 'a documentation address'],
  ['5f00::', 16, 'a segment-routing (SRv6) address'],
  ['fc00::', 7, 'a unique-local (private) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
  ['::', 3, 'a reserved address (outside global unicast)'],
  ['4000::', 2, 'a reserved address (outside global unicast)'],
  ['8000::', 1, 'a reserved address (outside global unicast)'],
];

// One list per range (to name the one that matched), each checked only with addresses of its own family: a
// BlockList matches every IPv4 address against an IPv6 rule covering ::ffff:0:0/96.
const blocked = (ranges: readonly Range[], family: 'ipv4' | 'ipv6') =>
  ranges.map(([network, bits, kind]) => {
    const list = new BlockList();
    list.addSubnet(network, bits, family);
    return { list, kind };
  });
const IPV4 = blocked(IPV4_RANGES, 'ipv4');
const IPV6 = blocked(IPV6_RANGES, 'ipv6');

/**
 * What kind of refused address `address` is (e.g. "a loopback address"), or undefined when webhooks may
 * reach it. Any spelling of an IPv6 address (upper case, uncompressed, dotted IPv4 tail) is read as its
 * canonical form; an address with a zone index (fe80::1%eth0) names an interface of this host and is
 * refused, as is anything that is not an IP address.
 */
export function refusedAddressKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (address.includes('%')) return 'an address scoped to an interface of this host';
  const canonical = new SocketAddress({ address, family: family === 4 ? 'ipv4' : 'ipv6' }).address;
  const ranges = family === 4 ? IPV4 : IPV6;
  return ranges.find(({ list }) => list.check(canonical, family === 4 ? 'ipv4' : 'ipv6'))?.kind;
}

/** Whether an IP address lies in a range webhooks may not reach. */
export const isRefusedAddress = (address: string): boolean => refusedAddressKind(address) !== undefined;
