import type { RedisClient } from '../../platform/redis/redis.js';
import type { SwipeKind } from './swipe-schemas.js';
import { IdBlock } from '../../platform/redis/id-block.js';
import { indexPartition, pairShard, SHARDS } from '../../platform/redis/key-space.js';
import type { PendingRef } from '../../platform/outbox/outbox-repository.js';
import { IDEMPOTENCY_TTL_SECONDS } from '../../platform/redis/idempotency-ttl.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys, PASSES_KEPT } from '../../platform/redis/keys.js';
import { replyIsOne } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { storedInterests, type AccountReadsRepository } from '../accounts/index.js';
import { decodeBeginSwipe, decodeRecordSwipe, decodeUndoPass, type StoredOutcome, type SwipeReplaced, type UndoPassReply } from './swipe-replies.js';

const beginSwipe = script('begin_swipe', decodeBeginSwipe);
export const recordSwipe = script('record_swipe', decodeRecordSwipe);
/** Whether the swipe was taken back (false: a later swipe on the target stands). */
const takeBackSwipe = script('take_back_swipe', replyIsOne);
export const undoPass = script('undo_pass', decodeUndoPass);

/** Between the target and the kind in an Idempotency-Key's claim. */
const FINGERPRINT_SEPARATOR = '\n';

/** How lua/begin_swipe-6.lua is called (its ARGV[5]): count only, apply only, or count and apply. */
type BeginMode = typeof COUNT_ONLY | typeof APPLY_ONLY | typeof APPLY_COUNTED;
const COUNT_ONLY = 0;
const APPLY_ONLY = 1;
const APPLY_COUNTED = 2;

/** A swipe about to be decided on its pair: who, on whom, what, when, the match id it may create, and both accounts as read. */
type Decision = {
  pool: Pool;
  shard: number;
  fromId: number;
  toId: number;
  kind: SwipeKind;
  now: Date;
  candidate: number;
  idempotencyKey?: string;
  swiper: string | null;
  target: string;
};

/** The swiper's keys a swipe touches in its own slot. */
type OwnKeys = { list: string[] };

export type { StoredOutcome, UndoPassReply };

/** Swipes allowed per account per window (limit 0: none). */
export type SwipeLimit = { limit: number; windowSeconds: number };

export type RecordedSwipe =
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
      outcome: StoredOutcome;
      matchId: number | null;
      /** The new match's shared interests (only when `outcome` is 'created' and not a replay). */
      sharedInterests: string[] | null;
      /**
       * The swipe's pending outbox record (its outbox steps: a match, an announcement): `record` when
       * written now, else only its id (a replay); null when the swipe had no news.
       */
      pending: PendingRef | null;
      /** Both users as stored, read with the swipe (the swiper only for a like or super like). */
      accounts: { swiper: string | null; target: string };
      /** The target was in the swiper's feed: the feed has room now (see `feedHasRoom`). */
      leftFeed: boolean;
    };

/** A first pass on a target, recorded on the swiper's own keys only: what the pair would have answered. */
function firstPass(now: Date, target: string, leftFeed: boolean): RecordedSwipe {
  return {
    status: 'recorded',
    replay: false,
    kind: 'pass',
    createdAt: now.toISOString(),
    outcome: 'none',
    matchId: null,
    sharedInterests: null,
    pending: null,
    accounts: { swiper: null, target },
    leftFeed,
  };
}

/**
 * The swipe graph, in two round trips. First the swipe is counted on the swiper's own keys and, without an
 * Idempotency-Key, applied to them in the same call; with one, the key is claimed for its target and kind
 * there instead (lua/begin_swipe-6.lua); meanwhile the target is read unless absent or suspended
 * (lua/read_visible_account-2.lua) and, for a like, the swiper. Then it is decided in one Lua call on the
 * pair's state (lua/record_swipe-5.lua), which creates the match a mutual like completes and leaves what a
 * match or an announcement changes elsewhere as a pending outbox record for the follow-up runner; a swipe
 * with an Idempotency-Key is applied to the swiper's keys beside it, with the kind its first request
 * recorded. A refused swipe (past the limit, a key held by another request, no such target) writes nothing
 * but its count: a swipe applied as it was counted, on a target found absent or suspended, is taken back
 * before its answer (lua/take_back_swipe-3.lua), a third round trip only then. A first pass on a target
 * (without an Idempotency-Key) needs no decision: it is done in the first round trip.
 */
export class SwipeRepository {
  /** Candidate match ids, per pool and shard: a match id names its shard. */
  private readonly matchIds = new Map<string, IdBlock>();

  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    /** The target and the swiper, read beside the swipe's first call. */
    private readonly accounts: Pick<AccountReadsRepository, 'visible' | 'stored'>,
    private readonly limit: SwipeLimit,
  ) {}

  async record(pool: Pool, fromId: number, toId: number, kind: SwipeKind, now: Date, idempotencyKey?: string): Promise<RecordedSwipe> {
    const shard = pairShard(fromId, toId);
    // A pass never creates a match: it is given the shard's id of no match (the first match id of a shard is past it).
    const ids = kind === 'pass' ? undefined : this.candidates(pool, shard);
    const own = this.ownKeys(pool, fromId, idempotencyKey);
    // Without an Idempotency-Key the swipe is applied to the swiper's keys as it is counted; with one, only
    // once the pair's decision says which kind the key's first request recorded.
    const applyNow = idempotencyKey === undefined;
    // One round trip: the count (and the key's claim), the target unless absent or suspended, the swiper
    // (a pass never makes a match, so it needs neither user's interests) and a candidate match id.
    const [begun, target, swiper, candidate] = await Promise.all([
      this.begin(own, toId, kind, this.limit.limit, applyNow ? APPLY_COUNTED : COUNT_ONLY, now, idempotencyKey),
      this.accounts.visible(pool, toId),
      kind === 'pass' ? null : this.accounts.stored(pool, fromId),
      ids ? ids.take() : shard,
    ]);
    const { allowed, retryAfterMs, heldBy, hidden } = begun;
    if (heldBy !== undefined || !allowed || hidden || target === null) ids?.give(candidate);
    if (heldBy !== undefined) {
      const cut = heldBy.indexOf(FINGERPRINT_SEPARATOR);
      return { status: 'key_reused', first: { targetId: Number(heldBy.slice(0, cut)), kind: heldBy.slice(cut + 1) } };
    }
    if (!allowed) return { status: 'rate_limited', retryAfterMs };
    // Nothing was written for a target kept from the swiper by a block either way, nor is anything left
    // for one that does not exist or is suspended (each answered alike): a swipe applied as it was counted
    // is taken back first.
    if (hidden) return { status: 'not_found' };
    if (target === null) {
      if (begun.replaced) await this.takeBack(own, toId, kind, begun.replaced);
      return { status: 'not_found' };
    }
    // A first pass on this target (the swiper's list held nothing for it) leaves the pair as it is: only a
    // like of the swiper's, which its list would show, is something a pass must replace there, and a pass
    // alone never matches. Its answer is the one the pair would give, without the second round trip.
    if (applyNow && kind === 'pass' && begun.replaced?.kind === '') return firstPass(now, target, begun.leftFeed);
    // The second round trip: the pair's decision and, with an Idempotency-Key, the swipe applied to the
    // swiper's keys beside it. A request that holds a key's claim is the request the pair's record names (or
    // the first with the key): the same target and kind, so applying that kind is right whatever the
    // decision. The claim, written a round trip before the record, lapses that much sooner: a request in
    // between is refused by the record, and the swiper's keys are given the recorded kind back.
    // On an error the candidate is not given back: the script may have used it before the reply was lost.
    const decision = this.decide({ pool, shard, fromId, toId, kind, now, candidate, idempotencyKey, swiper, target });
    let reply: Awaited<typeof decision>;
    let leftFeed = begun.leftFeed;
    if (applyNow) {
      reply = await decision;
    } else {
      const [decided, applied] = await Promise.all([decision, this.begin(own, toId, kind, 0, APPLY_ONLY, now)]);
      reply = decided;
      leftFeed = applied.leftFeed;
    }
    const { status, kind: recordedKind, createdAt, outcome, matchId, pendingId, sharedInterests, pendingRecord } = reply;
    const replay = status !== 'ok';
    if (replay || outcome !== 'created') ids?.give(candidate);
    if (status === 'key_reused') {
      await this.begin(own, toId, recordedKind, 0, APPLY_ONLY, now);
      return { status: 'key_reused', first: { targetId: toId, kind: recordedKind } };
    }
    return {
      status: 'recorded',
      replay,
      kind: recordedKind,
      createdAt,
      outcome,
      matchId,
      sharedInterests,
      pending: pendingId ? { shard, id: pendingId, ...(pendingRecord ? { record: pendingRecord } : {}) } : null,
      accounts: { swiper, target },
      leftFeed,
    };
  }

  /** lua/record_swipe-5.lua: the swipe decided on the pair's state. */
  private decide(swipe: Decision) {
    const { pool, shard, fromId, toId, kind, now, candidate, idempotencyKey, swiper, target } = swipe;
    // Without an Idempotency-Key the script is told so (a lifetime of 0) and leaves the key it is given alone.
    const idempotency = keys.idempotency(pool, shard, fromId, `likes/${toId}`, idempotencyKey ?? '');
    const keyList = [keys.pair(pool, fromId, toId), keys.match(pool, candidate), keys.shardOutbox(pool, shard), keys.shardOutboxDue(pool, shard), idempotency];
    // A like is acknowledged once replicas hold it (a failover must not lose the like a match needs); a
    // pass lost to one only shows the target again, and is not worth the replicas' round trip.
    return this.scripts[kind === 'pass' ? 'runHot' : 'runAcknowledged'](recordSwipe, keyList, [
      fromId,
      toId,
      kind,
      now.getTime(),
      now.toISOString(),
      candidate,
      idempotencyKey ? IDEMPOTENCY_TTL_SECONDS : 0,
      // A pass never makes a match, so the script is given no interests to share.
      swiper === null ? '[]' : storedInterests(swiper),
      kind === 'pass' ? '[]' : storedInterests(target),
    ]);
  }

  /** The swiper's keys of lua/begin_swipe-6.lua (the Idempotency-Key's claim named by its key, or by '' when there is none). */
  private ownKeys(pool: Pool, fromId: number, idempotencyKey?: string): OwnKeys {
    return {
      list: [
        keys.accountRateLimit('like', pool, fromId),
        keys.swipes(pool, fromId),
        keys.feed(pool, fromId),
        keys.passes(pool, fromId),
        keys.idempotencyClaim(pool, fromId, 'like', idempotencyKey ?? ''),
        keys.hidden(pool, fromId),
      ],
    };
  }

  /**
   * lua/begin_swipe-6.lua: counted within the limit (or, with a limit of 0, applied), the ms left in the
   * window, whether the target left the feed, the request holding the Idempotency-Key when another does,
   * and, counted and applied at once, what the swipe replaced.
   */
  private begin(own: OwnKeys, toId: number, kind: SwipeKind, limit: number, mode: BeginMode, now: Date, idempotencyKey?: string) {
    return this.scripts.runHot(beginSwipe, own.list, [
      toId,
      kind,
      limit,
      this.limit.windowSeconds * 1000,
      mode,
      now.getTime(),
      idempotencyKey === undefined ? '' : `${toId}${FINGERPRINT_SEPARATOR}${kind}`,
      IDEMPOTENCY_TTL_SECONDS,
      PASSES_KEPT,
    ]);
  }

  /** lua/take_back_swipe-3.lua: the swiper's keys get back what a swipe on nobody replaced. */
  private takeBack(own: OwnKeys, toId: number, kind: SwipeKind, replaced: SwipeReplaced) {
    const [, swipes, feed, passes] = own.list;
    return this.scripts.runHot(
      takeBackSwipe,
      [swipes!, feed!, passes!],
      [toId, kind, replaced.newPassAt, replaced.kind, replaced.passedAt, replaced.feedScore],
    );
  }

  /**
   * Undoes the account's last pass, on `toId`, if made within `windowMs` of `now` (lua/undo_pass-3.lua):
   * counted against the swipe limit like a swipe. The target is back in the account's feed at once.
   */
  undoPass(pool: Pool, fromId: number, toId: number, now: Date, windowMs: number): Promise<UndoPassReply> {
    return this.scripts.run(
      undoPass,
      [keys.accountRateLimit('like', pool, fromId), keys.swipes(pool, fromId), keys.passes(pool, fromId)],
      [toId, now.getTime(), windowMs, this.limit.limit || Number.MAX_SAFE_INTEGER, this.limit.windowSeconds * 1000],
    );
  }

  /**
   * A feed that lost an entry has room: its floor (lua/rank_feed-4.lua) drops to 0. The floor is a hint for
   * spreading that the next ranking rewrites, so a full Redis refusing it is let pass; the swipe sets it after
   * its answer.
   */
  async feedHasRoom(pool: Pool, fromId: number): Promise<void> {
    await this.redis.zadd(keys.feedFloors(pool, indexPartition(fromId)), 'XX', 0, fromId).catch(() => undefined);
  }

  private candidates(pool: Pool, shard: number): IdBlock {
    const name = `${pool}:${shard}`;
    let block = this.matchIds.get(name);
    if (!block) {
      block = new IdBlock(this.scripts, keys.matchSeq(pool, shard), 16, (count) => count * SHARDS + shard);
      this.matchIds.set(name, block);
    }
    return block;
  }
}
