import type { RedisClient } from './redis.js';
import { DAY_MS, type StreamAppend } from './event-streams.js';
import type { Pool } from '../domain/pool.js';
import { EVENTS_CHANNEL, keys } from './keys.js';
import type { Scripts } from './scripts.js';

/** A pending record as the commit script left it: its id and its JSON array of event specs. */
export type PendingRecord = { id: string; record: string };

/**
 * The outbox in Redis: the pending-event records that commit scripts write together with their data, and
 * the flush that appends a record's events and deletes the record in one script (lua/flush_events.lua).
 */
export class EventOutboxStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly retentionMs = DAY_MS,
  ) {}

  /**
   * Appends `entries` and deletes the record, if the record is still there (else nothing: someone else
   * flushed it). `messageOf` names the match of a message's record: nothing is appended once it ended.
   * True when the entries were appended.
   */
  async flush(pool: Pool, pendingId: string, entries: readonly StreamAppend[], messageOf?: number): Promise<boolean> {
    const keyList = [keys.outbox(pool), keys.outboxDue(pool)];
    if (messageOf !== undefined) keyList.push(keys.match(pool, messageOf), keys.matchEvents(pool, messageOf));
    const args: Array<string | number> = [pendingId, messageOf !== undefined ? 2 : 0, EVENTS_CHANNEL, this.retentionMs];
    for (const entry of entries) {
      keyList.push(entry.key);
      args.push(entry.maxLength, entry.route, entry.body);
    }
    return (await this.scripts.run<number>('flush_events', keyList, args)) === 1;
  }

  /** The record still pending under `pendingId`, if any. */
  find(pool: Pool, pendingId: string): Promise<string | null> {
    return this.redis.hget(keys.outbox(pool), pendingId);
  }

  /** Up to `limit` records committed at or before `committedBy` (ms), oldest first. */
  async due(pool: Pool, committedBy: number, limit: number): Promise<PendingRecord[]> {
    const ids = await this.redis.zrangebyscore(keys.outboxDue(pool), '-inf', committedBy, 'LIMIT', 0, limit);
    if (ids.length === 0) return [];
    const records = await this.redis.hmget(keys.outbox(pool), ...ids);
    return ids.flatMap((id, i) => (records[i] ? [{ id, record: records[i] }] : []));
  }
}
