import type { RedisClient } from './redis.js';
import type { SwipeKind } from '../domain/swipe-kinds.js';
import { IdBlock } from './id-block.js';
import { pairShard, SHARDS } from './key-space.js';
import type { PendingRef } from './outbox-records.js';
import type { RateLimiter } from './rate-limiter.js';
import { IDEMPOTENCY_TTL_SECONDS } from './idempotency.js';
import type { Pool } from '../domain/pool.js';
import { keys } from './keys.js';
import type { Scripts } from './scripts.js';

/**
 * What a recorded swipe did to the pair's match: none, created, existing (returned as it is), kept (a pass
 * on a current match: the match stays), ended (a like on a pair whose match was ended: it never matches again).
 */
export type MatchEffect = 'none' | 'created' | 'existing' | 'kept' | 'ended';

/** Swipes allowed per account per window (limit 0: none). */
export type SwipeLimit = { limit: number; windowSeconds: number };

export type SwipeOutcome =
  | { status: 'not_found' }
  | { status: 'rate_limited'; retryAfterMs: number }
  /** The Idempotency-Key was used before with another kind (`kind`): nothing was written. */
  | { status: 'key_reused'; kind: SwipeKind }
  | {
      status: 'recorded';
      /** True when an earlier request with the same Idempotency-Key did the work; nothing was written now. */
      replay: boolean;
      kind: SwipeKind;
      createdAt: string;
      effect: MatchEffect;
      matchId: number | null;
      /** The new match's shared interests (only when `effect` is 'created' and not a replay). */
      sharedInterests: string[] | null;
      /** The swipe's pending outbox record (its follow-up steps): `record` when written now, else only its id (a replay). */
      pending: PendingRef;
    };

/**
 * The swipe graph. A swipe is decided in one Lua call on the pair's state (lua/record_swipe.lua), which
 * creates the match a mutual like completes; what it changes elsewhere is left as a pending outbox record
 * for the follow-up runner. Before it, in one round trip: the swiper's rate limit and both users' interests
 * (the target's tell that it exists in the caller's pool).
 */
export class SwipeRepository {
  /** Candidate match ids, per pool and shard: a match id names its shard. */
  private readonly matchIds = new Map<string, IdBlock>();

  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly rateLimiter: RateLimiter,
    private readonly limit: SwipeLimit = { limit: 0, windowSeconds: 60 },
  ) {}

  async record(pool: Pool, fromId: number, toId: number, kind: SwipeKind, now: Date, idempotencyKey?: string): Promise<SwipeOutcome> {
    const shard = pairShard(fromId, toId);
    const [allowed, fromInterests, toInterests, candidate] = await Promise.all([
      this.limit.limit > 0 ? this.rateLimiter.hitAccount('like', { pool, userId: fromId }, this.limit.limit, this.limit.windowSeconds) : undefined,
      this.redis.hget(keys.user(pool, fromId), 'interests'),
      this.redis.hget(keys.user(pool, toId), 'interests'),
      this.candidates(pool, shard).take(),
    ]);
    const ids = this.candidates(pool, shard);
    if (allowed && !allowed.allowed) {
      ids.give(candidate);
      return { status: 'rate_limited', retryAfterMs: allowed.retryAfterMs };
    }
    if (toInterests === null) {
      ids.give(candidate);
      return { status: 'not_found' };
    }
    const keyList = [keys.pair(pool, fromId, toId), keys.match(pool, candidate), keys.shardOutbox(pool, shard), keys.shardOutboxDue(pool, shard)];
    if (idempotencyKey) keyList.push(keys.idempotency(pool, shard, fromId, `likes/${toId}`, idempotencyKey));
    // On an error the candidate is not given back: the script may have used it before the reply was lost.
    const reply = await this.scripts.runDirect<string[]>('record_swipe', keyList, [
      fromId,
      toId,
      kind,
      now.getTime(),
      now.toISOString(),
      candidate,
      IDEMPOTENCY_TTL_SECONDS,
      fromInterests ?? '[]',
      toInterests,
    ]);
    const [status, record = '', shared = '', pendingRecord = ''] = reply;
    const [recordedKind, createdAt, effect, matchId, pendingId = ''] = record.split('|') as [SwipeKind, string, MatchEffect, string, string?];
    const replay = status !== 'ok';
    if (replay || effect !== 'created') ids.give(candidate);
    if (status === 'key_reused') return { status: 'key_reused', kind: recordedKind };
    return {
      status: 'recorded',
      replay,
      kind: recordedKind,
      createdAt,
      effect,
      matchId: matchId ? Number(matchId) : null,
      sharedInterests: shared ? (JSON.parse(shared) as string[]) : null,
      pending: { shard, id: pendingId, ...(pendingRecord ? { record: pendingRecord } : {}) },
    };
  }

  private candidates(pool: Pool, shard: number): IdBlock {
    const name = `${pool}:${shard}`;
    let block = this.matchIds.get(name);
    if (!block) {
      block = new IdBlock(this.redis, keys.matchSeq(pool, shard), 16, (count) => count * SHARDS + shard);
      this.matchIds.set(name, block);
    }
    return block;
  }
}
