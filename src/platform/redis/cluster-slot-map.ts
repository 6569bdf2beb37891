import { ReplyError } from './resp.js';

/** Hash slots of a Redis Cluster. */
export const SLOT_COUNT = 16_384;

/** The host of a `host:port` address (an IPv6 host with or without brackets). */
export const hostOf = (address: string): string => address.slice(0, address.lastIndexOf(':'));

/** The URL of a `host:port` address, for a node connection. */
export function nodeUrl(address: string): string {
  const host = hostOf(address);
  return `redis://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${address.slice(host.length + 1)}`;
}

/** A node that does not know its own address says '' or '?': it is then the one that answered. */
const addressOf = (host: string, port: string | number, answeredBy: string) => `${host && host !== '?' ? host : hostOf(answeredBy)}:${port}`;

/**
 * The master serving each slot (`host:port`, '' where none does), from a CLUSTER SLOTS reply of the node
 * at `answeredBy`: ranges of [first slot, last slot, [master host, port, id, …], …replicas].
 */
export function slotOwners(reply: unknown, answeredBy: string): string[] {
  if (!Array.isArray(reply)) throw new Error(`unexpected CLUSTER SLOTS reply: ${JSON.stringify(reply)}`);
  const owners = new Array<string>(SLOT_COUNT).fill('');
  for (const range of reply as Array<[number, number, [string, number]]>) {
    const [first, last, [host, port]] = range;
    owners.fill(addressOf(host, port, answeredBy), first, last + 1);
  }
  return owners;
}

/** Where a Redis Cluster node sent a call: MOVED (the slot's master now) or ASK (for this call only, while the slot migrates). */
export type Redirection = { ask: boolean; slot: number; address: string };

/** The redirection of an error reply such as `MOVED 3999 127.0.0.1:6381`, or undefined for any other error. */
export function redirectionOf(error: unknown, answeredBy: string): Redirection | undefined {
  if (!(error instanceof ReplyError)) return undefined;
  const found = /^(MOVED|ASK) (\d+) (.*):(\d+)$/.exec(error.message);
  if (!found) return undefined;
  return { ask: found[1] === 'ASK', slot: Number(found[2]), address: addressOf(found[3]!, found[4]!, answeredBy) };
}

/**
 * TRYAGAIN (a multi-key call whose keys a migration has split between two nodes) and CLUSTERDOWN: refused
 * before running, to be asked again a little later.
 */
export const isRetryLater = (error: unknown): boolean => error instanceof ReplyError && /^(TRYAGAIN|CLUSTERDOWN)\b/.test(error.message);
