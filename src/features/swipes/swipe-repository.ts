import type { RedisClient } from '../../platform/redis/redis.js';
import type { SwipeKind } from './swipe-schemas.js';
import { IdBlock } from '../../platform/redis/id-block.js';
import { indexPartition, pairShard, SHARDS } from '../../platform/redis/key-space.js';
import type { PendingRef } from '../events/index.js';
import { IDEMPOTENCY_TTL_SECONDS } from '../../platform/redis/idempotency-ttl.js';
import { claimIdempotencyKey } from '../../platform/redis/idempotency-claims.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import type { StoredOutcome, UndoPassReply } from '../../platform/redis/script-replies.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { storedInterestsOf } from '../accounts/index.js';

export type { StoredOutcome, UndoPassReply };

/** Swipes allowed per account per window (limit 0: none). */
export type SwipeLimit = { limit: number; windowSeconds: number };

export type SwipeOutcome =
  | { status: 'not_found' }
  | { status: 'rate_limited'; retryAfterMs: number }
  /** The Idempotency-Key was used before for another swipe (`first`: another target, or another kind): nothing was written. */
  | { status: 'key_reused'; first: { targetId: number; kind: string } }
  | {
      status: 'recorded';
      /** True when an earlier request with the same Idempotency-Key did the work; nothing was written now. */
      replay: boolean;
      kind: SwipeKind;
      createdAt: string;
      effect: StoredOutcome;
      matchId: number | null;
      /** The new match's shared interests (only when `effect` is 'created' and not a replay). */
      sharedInterests: string[] | null;
      /**
       * The swipe's pending outbox record (its outbox steps: a match, an announcement): `record` when
       * written now, else only its id (a replay); null when the swipe had no news.
       */
      pending: PendingRef | null;
    };

/**
 * The swipe graph. A swipe is counted and applied to the swiper's own keys (lua/begin_swipe-4.lua) while the
 * target's existence and both users' interests are read, in one round trip; then it is decided in one Lua
 * call on the pair's state (lua/record_swipe-5.lua), which creates the match a mutual like completes and
 * leaves what a match or an announcement changes elsewhere as a pending outbox record for the follow-up
 * runner. A swipe with an Idempotency-Key claims the key for the swiper's likes first (another target under
 * it is refused), and is applied to the swiper's keys only once its decision stands, so that a refused
 * repeat (another target or kind under the same key) changes nothing.
 */
export class SwipeRepository {
  /** Candidate match ids, per pool and shard: a match id names its shard. */
  private readonly matchIds = new Map<string, IdBlock>();

  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly limit: SwipeLimit = { limit: 0, windowSeconds: 60 },
  ) {}

  async record(pool: Pool, fromId: number, toId: number, kind: SwipeKind, now: Date, idempotencyKey?: string): Promise<SwipeOutcome> {
    const shard = pairShard(fromId, toId);
    const ids = this.candidates(pool, shard);
    const applyFirst = idempotencyKey === undefined;
    const [claimedBy, begun, fromInterests, toInterests, candidate] = await Promise.all([
      idempotencyKey === undefined ? undefined : claimIdempotencyKey(this.scripts, { pool, userId: fromId }, 'like', idempotencyKey, { target: String(toId), request: kind }),
      this.begin(pool, fromId, toId, kind, this.limit.limit, applyFirst, now),
      // a pass never makes a match, so it needs no shared interests
      kind === 'pass' ? null : storedInterestsOf(this.scripts, pool, fromId),
      storedInterestsOf(this.scripts, pool, toId),
      ids.take(),
    ]);
    const { allowed, retryAfterMs, leftFeed } = begun;
    if (claimedBy) {
      ids.give(candidate);
      return { status: 'key_reused', first: { targetId: Number(claimedBy.target), kind: claimedBy.request } };
    }
    if (!allowed) {
      ids.give(candidate);
      return { status: 'rate_limited', retryAfterMs };
    }
    if (toInterests === null) {
      ids.give(candidate);
      // no such target: take back what the first step applied (nothing can have been there for it)
      if (applyFirst) await Promise.all([this.redis.hdel(keys.swipes(pool, fromId), String(toId)), this.redis.zrem(keys.passes(pool, fromId), String(toId))]);
      return { status: 'not_found' };
    }
    // Without an Idempotency-Key the script is told so (a lifetime of 0) and leaves the key it is given alone.
    const idempotency = keys.idempotency(pool, shard, fromId, `likes/${toId}`, idempotencyKey ?? '');
    const keyList = [keys.pair(pool, fromId, toId), keys.match(pool, candidate), keys.shardOutbox(pool, shard), keys.shardOutboxDue(pool, shard), idempotency];
    // On an error the candidate is not given back: the script may have used it before the reply was lost.
    const [reply] = await Promise.all([
      this.scripts.runHot('record_swipe', keyList, [
        fromId,
        toId,
        kind,
        now.getTime(),
        now.toISOString(),
        candidate,
        idempotencyKey ? IDEMPOTENCY_TTL_SECONDS : 0,
        fromInterests ?? '[]',
        toInterests,
      ]),
      leftFeed ? this.feedHasRoom(pool, fromId) : undefined,
    ]);
    const { status, kind: recordedKind, createdAt, effect, matchId, pendingId, sharedInterests, pendingRecord } = reply;
    const replay = status !== 'ok';
    if (replay || effect !== 'created') ids.give(candidate);
    if (status === 'key_reused') return { status: 'key_reused', first: { targetId: toId, kind: recordedKind } };
    if (!applyFirst) {
      const applied = await this.begin(pool, fromId, toId, recordedKind, 0, true, now);
      if (applied.leftFeed) await this.feedHasRoom(pool, fromId);
    }
    return {
      status: 'recorded',
      replay,
      kind: recordedKind,
      createdAt,
      effect,
      matchId,
      sharedInterests,
      pending: pendingId ? { shard, id: pendingId, ...(pendingRecord ? { record: pendingRecord } : {}) } : null,
    };
  }

  /** lua/begin_swipe-4.lua: counted within the limit, the ms left in the window, whether the target left the feed. */
  private begin(pool: Pool, fromId: number, toId: number, kind: SwipeKind, limit: number, apply: boolean, now: Date) {
    return this.scripts.runHot(
      'begin_swipe',
      [keys.accountRateLimit('like', pool, fromId), keys.swipes(pool, fromId), keys.feed(pool, fromId), keys.passes(pool, fromId)],
      [toId, kind, limit, this.limit.windowSeconds * 1000, apply ? 1 : 0, now.getTime()],
    );
  }

  /**
   * Undoes the account's last pass, on `toId`, if made within `windowMs` of `now` (lua/undo_pass-3.lua):
   * counted against the swipe limit like a swipe. The target is back in the account's feed at once.
   */
  undoPass(pool: Pool, fromId: number, toId: number, now: Date, windowMs: number): Promise<UndoPassReply> {
    return this.scripts.run(
      'undo_pass',
      [keys.accountRateLimit('like', pool, fromId), keys.swipes(pool, fromId), keys.passes(pool, fromId)],
      [toId, now.getTime(), windowMs, this.limit.limit || Number.MAX_SAFE_INTEGER, this.limit.windowSeconds * 1000],
    );
  }

  /**
   * A feed that lost an entry has room: its floor (lua/rank_feed-4.lua) drops to 0. The floor is a hint for
   * spreading that the next ranking rewrites, so a full Redis refusing it is let pass.
   */
  private async feedHasRoom(pool: Pool, fromId: number): Promise<void> {
    await this.redis.zadd(keys.feedFloors(pool, indexPartition(fromId)), 'XX', 0, fromId).catch(() => undefined);
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
