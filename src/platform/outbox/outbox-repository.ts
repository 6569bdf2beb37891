import type { RedisClient } from '../redis/redis.js';
import type { Pool } from '../core/pool.js';
import { keys } from '../redis/keys.js';
import { optionalReplyText, replyList } from '../redis/raw-reply.js';
import { script } from '../redis/script.js';
import type { Scripts } from '../redis/scripts.js';

/** A pending record as the commit script left it: its id and its JSON array of effects. */
export type PendingRecord = { id: string; record: string };

/** Where a write's pending record is: its shard and id, and the record itself when the write was made now. */
export type PendingRef = { shard: number; id: string; record?: string };

/** What the dead letter keeps of a record given up on, beside the record itself. */
export type BurialNote = { attempts: number; lastError: string };

/** Failure counts of records that were then completed (by another path) lapse by themselves. */
const FAILURES_TTL_MS = 24 * 60 * 60 * 1000;

/** lua/confirm_pending-1.lua: each record asked for, null where it is gone. */
const confirmPending = script('confirm_pending', (raw) => replyList(raw).map((record) => optionalReplyText(record) ?? null));

/**
 * The outboxes in Redis, one per pool and shard. A commit script writes, in the same atomic step as its
 * data, a pending record of the outbox steps its write needs in other hash slots (an account's index
 * entries, a match in each user's list, events in streams):
 *
 *   HSET <outbox> <pending id> <record JSON>   and   ZADD <outbox due> <commit ms> <pending id>
 *
 * (keys.shardOutbox / keys.shardOutboxDue of the commit's own shard). Every step is idempotent; the record
 * is deleted once all of its steps are done, and the sweeper completes records left behind.
 */
export class OutboxRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {}

  find(pool: Pool, shard: number, pendingId: string): Promise<string | null> {
    return this.redis.hget(keys.shardOutbox(pool, shard), pendingId);
  }

  /**
   * Up to `limit` records of the shard committed at or before `committedBy` (ms), oldest first, once the
   * replicas asked for (REDIS_MIN_REPLICAS_ACK) hold the commits that wrote them (lua/confirm_pending-1.lua):
   * a write answered 503 may yet be lost to a failover, and its steps must not run before. Throws
   * ReplicasBehindError while the replicas do not confirm.
   */
  async due(pool: Pool, shard: number, committedBy: number, limit: number): Promise<PendingRecord[]> {
    const ids = await this.redis.zrangebyscore(keys.shardOutboxDue(pool, shard), '-inf', committedBy, 'LIMIT', 0, limit);
    if (ids.length === 0) return [];
    const records = await this.scripts.runAcknowledged(confirmPending, [keys.shardOutbox(pool, shard)], ids);
    // An id whose record is gone was completed between the two reads (or half-deleted): drop it.
    const gone = ids.filter((_, i) => !records[i]);
    if (gone.length > 0) await this.redis.zrem(keys.shardOutboxDue(pool, shard), ...gone);
    return ids.flatMap((id, i) => (records[i] ? [{ id, record: records[i] }] : []));
  }

  /**
   * Deletes a record whose steps are all done: the record, then its due entry, sent together on the one
   * connection of their slot, so Redis runs them in that order and a sweep never misses a record.
   */
  async complete(pool: Pool, shard: number, pendingId: string): Promise<void> {
    await Promise.all([this.redis.hdel(keys.shardOutbox(pool, shard), pendingId), this.redis.zrem(keys.shardOutboxDue(pool, shard), pendingId)]);
  }

  /** Counts one more sweep that failed to complete the record; returns how many have. */
  async noteFailure(pool: Pool, shard: number, pendingId: string): Promise<number> {
    const key = keys.outboxFailures(pool, shard, pendingId);
    const replies = await this.redis.multi().incr(key).pexpire(key, FAILURES_TTL_MS).exec();
    const [error, count] = replies?.[0] ?? [new Error('the failure count was not written')];
    if (error) throw error;
    return Number(count);
  }

  /**
   * Moves a record out of its outbox into the dead letter (keys.outboxDeadLetter): first written there (one
   * field per record, so writing it twice keeps one), then taken out of the outbox, so a crash in between
   * leaves it in both rather than in neither. True when this call took it out (once, among concurrent ones).
   */
  async bury(pool: Pool, shard: number, pendingId: string, record: string, note: BurialNote): Promise<boolean> {
    const entry = {
      pool,
      shard,
      id: pendingId,
      record,
      attempts: note.attempts,
      last_error: note.lastError,
      buried_at: new Date().toISOString(),
      outbox: keys.shardOutbox(pool, shard),
      due: keys.shardOutboxDue(pool, shard),
    };
    await this.redis.hset(keys.outboxDeadLetter(), `${pool}:${shard}:${pendingId}`, JSON.stringify(entry));
    const [removed] = await Promise.all([
      this.redis.hdel(keys.shardOutbox(pool, shard), pendingId),
      this.redis.zrem(keys.shardOutboxDue(pool, shard), pendingId),
      this.redis.del(keys.outboxFailures(pool, shard, pendingId)),
    ]);
    return removed === 1;
  }
}
