import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where webhooks may not point (unless the operator allows it with WEBHOOK_ALLOW_PRIVATE): private,
 * loopback, link-local, shared, multicast and reserved ranges, IPv4 and IPv6 (IPv4-mapped IPv6 as IPv4).
 */
const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) refused.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32],
] as const) refused.addSubnet(net, bits, 'ipv6');

/** Whether an IP address lies in a range webhooks may not reach. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return refused.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a destination is refused; `reason` is shown to the agent. */
export class RefusedDestination extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The URL's host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Checks a webhook URL when it is saved: http or https, no credentials, and (unless private destinations
 * are allowed) a host that resolves only to public addresses (or not at all, yet). Deliveries check the resolved address again.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedDestination('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedDestination('must use http or https');
  if (url.username || url.password) throw new RefusedDestination('must not carry a user name or password');
  if (allowPrivate) return url;
  const host = bareHost(url);
  // A name that does not resolve yet is accepted: every delivery connection checks the address it reaches.
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  if (addresses.some(isPrivateAddress)) throw new RefusedDestination('must not point to a private, loopback or link-local address');
  return url;
}

function resolveAll(host: string): Promise<string[]> {
  return new Promise((resolve) => dnsLookup(host, { all: true }, (error, found: LookupAddress[]) => resolve(error ? [] : found.map((a) => a.address))));
}

/** The refusal of an IP-literal destination at delivery time, or undefined when it may be reached. */
export function refusedLiteral(url: URL, allowPrivate: boolean): string | undefined {
  const host = bareHost(url);
  if (allowPrivate || isIP(host) === 0) return undefined;
  return isPrivateAddress(host) ? `refused: ${host} is a private, loopback or link-local address` : undefined;
}

/**
 * A DNS lookup for delivery connections that refuses private addresses: the address checked is the one
 * connected to, so a name that changes its answer between save and delivery cannot reach inside.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? found : found.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) return callback(new RefusedDestination(`refused: ${hostname} resolves to a private, loopback or link-local address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}
