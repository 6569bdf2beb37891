import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddressKind, isRefusedAddress } from './refused-addresses.js';

/** Where webhooks may be delivered (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOWED_PORTS). */
export type DestinationPolicy = {
  /** Any address may be reached: private, loopback, link-local and reserved ones too. */
  allowPrivate: boolean;
  /** The ports deliveries may go to, or any. */
  allowedPorts: readonly number[] | 'any';
};

/** Why a destination is refused; `reason` is shown to the agent. */
export class RefusedDestination extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** How a host name becomes addresses: the system resolver, unless another is given (same answer shape). */
export type HostResolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;
const systemResolver: HostResolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

const REFUSED_ADDRESSES = 'a private, loopback, link-local or reserved address';

/**
 * What a refused destination adds: how to get the events with no receiver the service may reach (an agent
 * on a laptop or behind NAT, whose receiver is on localhost or a private port).
 */
export const EVENTS_WITHOUT_A_RECEIVER =
  'With no receiver this service can reach, read your events from the event inbox instead (GET /api/v1/events, whose wait= holds the answer until one comes) or keep the WebSocket /api/v1/ws open';

/** The URL's host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** The port a URL connects to: its own, or its scheme's. */
const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/** "80 or 443", "80, 443 or 8443". */
export const portsInWords = (ports: readonly number[]) => (ports.length === 1 ? String(ports[0]) : `${ports.slice(0, -1).join(', ')} or ${ports.at(-1)}`);

/** The ports allowed, when `url`'s is not one of them. */
function portsInstead(url: URL, policy: DestinationPolicy): readonly number[] | undefined {
  return policy.allowedPorts === 'any' || policy.allowedPorts.includes(portOf(url)) ? undefined : policy.allowedPorts;
}

/**
 * Checks a webhook URL when it is saved: http or https, no credentials, an allowed port, and (unless private
 * destinations are allowed) a host that resolves only to addresses webhooks may reach (or not at all, yet).
 * Deliveries check the port and the resolved address again.
 */
export async function checkWebhookUrl(raw: string, policy: DestinationPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedDestination('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedDestination('must use http or https');
  if (url.username || url.password) throw new RefusedDestination('must not carry a user name or password');
  const ports = portsInstead(url, policy);
  if (ports)
    throw new RefusedDestination(
      `must use port ${portsInWords(ports)}, not ${portOf(url)}: webhooks are delivered to no other port. ${EVENTS_WITHOUT_A_RECEIVER}`,
    );
  if (policy.allowPrivate) return url;
  const host = bareHost(url);
  if (isIP(host)) {
    const kind = refusedAddressKind(host);
    if (kind) throw new RefusedDestination(`must not point to ${REFUSED_ADDRESSES}: ${host} is ${kind}. ${EVENTS_WITHOUT_A_RECEIVER}`);
    return url;
  }
  // A name that does not resolve yet is accepted: every delivery connection checks the address it reaches.
  if ((await resolveAll(host)).some(isRefusedAddress))
    throw new RefusedDestination(`must not point to ${REFUSED_ADDRESSES}: ${host} resolves to one. ${EVENTS_WITHOUT_A_RECEIVER}`);
  return url;
}

function resolveAll(host: string): Promise<string[]> {
  return new Promise((done) => systemResolver(host, { all: true }, (error, found) => done(error ? [] : found.map((a) => a.address))));
}

/**
 * The refusal of a delivery before any connection (a port not allowed, an IP-literal host that may not be
 * reached), or undefined. Only what the URL itself says is named, never an address it resolved to.
 */
export function refusedBeforeConnecting(url: URL, policy: DestinationPolicy): string | undefined {
  const ports = portsInstead(url, policy);
  if (ports) return `refused: port ${portOf(url)} is not allowed (webhooks go to port ${portsInWords(ports)})`;
  const host = bareHost(url);
  if (policy.allowPrivate || isIP(host) === 0) return undefined;
  return isRefusedAddress(host) ? `refused: ${host} is ${REFUSED_ADDRESSES}` : undefined;
}

/**
 * A DNS lookup for delivery connections that refuses addresses webhooks may not reach: the address checked
 * is the one connected to, so a name that changes its answer between save and delivery cannot reach inside.
 */
export function guardedLookup(policy: DestinationPolicy, resolve: HostResolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const usable = policy.allowPrivate ? found : found.filter((a) => !isRefusedAddress(a.address));
      if (usable.length === 0) return callback(new RefusedDestination(`refused: ${hostname} resolves to ${REFUSED_ADDRESSES}`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}
