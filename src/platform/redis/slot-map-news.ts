import { EventEmitter } from 'node:events';
import { SLOT_COUNT } from './cluster-slot-map.js';

/**
 * News between the Redis Cluster clients of one process: when one finds that another master serves some
 * slots (a replica promoted; the request path learns of it within 100 ms of a refused call), every other
 * client of the same cluster reads the slot map at once, rather than when one of its own calls is refused
 * or at its next periodic read. So the connections that no call has tried since (the pub/sub connection of a
 * master that stalled, an idle client still holding a connection to it) move to the new master with the
 * rest, and no call is sent to the old one meanwhile.
 */
const news = new EventEmitter().setMaxListeners(0);

/** One cluster's name among the news: its seed nodes (`host:port`), in any order. */
export const clusterName = (seeds: readonly string[]): string => [...seeds].sort().join(',');

/** The master of each range of slots, as one string, from `masterOf(slot)` (`host:port`, or '' for none). */
export function mastersSignature(masterOf: (slot: number) => string | undefined): string {
  let signature = '';
  let last: string | undefined;
  for (let slot = 0; slot < SLOT_COUNT; slot++) {
    const master = masterOf(slot) ?? '';
    if (master !== last) signature += `${slot}:${master} `;
    last = master;
  }
  return signature;
}

/**
 * A client's part in the news of cluster `name`: `read()` is called when another client found the masters
 * changed; the returned `saw(signature)` is told each slot map the client reads, and tells the others when it
 * differs from the client's previous one; `leave()` ends it.
 */
export function joinSlotMapNews(name: string, read: () => void): { saw: (signature: string) => void; leave: () => void } {
  let previous: string | undefined;
  const listener = (from: unknown) => {
    if (from !== listener) read();
  };
  news.on(name, listener);
  return {
    saw: (signature) => {
      const changed = previous !== undefined && previous !== signature;
      previous = signature;
      if (changed) news.emit(name, listener);
    },
    leave: () => news.off(name, listener),
  };
}
