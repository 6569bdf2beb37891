import { findAccounts, suspendedAmong, type UserRecord } from '../accounts/index.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import { poolOfKey } from '../../platform/redis/keys.js';
import { buildEvents, isPendingEvent, profilesNeeded, type PendingEvent } from './pending-events.js';
import { streamAppends } from './stream-appends.js';

/**
 * The frames of stream entries that store an event's spec rather than the profiles it shows (field `p`:
 * `match.created`, `like.received`), by entry id: each event built again from its spec with the profiles
 * as they are now, and the frame this stream would have been given. An entry whose spec is unreadable, or
 * one of whose accounts is gone (it left) or suspended, has no frame: the reader skips it, so a profile
 * that is gone is shown nowhere, in no replay (a suspended one shows again once lifted).
 */
export async function profileFrames(redis: RedisClient, key: string, entries: ReadonlyArray<{ id: string; spec: string }>): Promise<Map<string, string>> {
  const frames = new Map<string, string>();
  if (entries.length === 0) return frames;
  const pool = poolOfKey(key);
  const specs = entries.map(({ id, spec }) => ({ id, spec: parseSpec(spec) }));
  const ids = profilesNeeded(specs.flatMap(({ spec }) => (spec ? [spec] : [])));
  const [found, suspended] = await Promise.all([findAccounts(redis, pool, ids), suspendedAmong(redis, pool, ids)]);
  const users = new Map<number, UserRecord>();
  for (const user of found) if (user && !suspended.has(user.id)) users.set(user.id, user);
  for (const { id, spec } of specs) {
    if (!spec) continue;
    for (const { event, at } of buildEvents(pool, [spec], users)) {
      const entry = streamAppends(event, at).find((candidate) => candidate.target.stream === key);
      if (entry) frames.set(id, entry.body);
    }
  }
  return frames;
}

function parseSpec(text: string): PendingEvent | undefined {
  try {
    const spec = JSON.parse(text) as { type?: unknown };
    return typeof spec === 'object' && spec !== null && typeof spec.type === 'string' && isPendingEvent(spec as { type: string }) ? (spec as PendingEvent) : undefined;
  } catch {
    return undefined;
  }
}
