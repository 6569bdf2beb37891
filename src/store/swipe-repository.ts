import type { Redis } from 'ioredis';
import type { SwipeKind } from '../domain/swipe-kinds.js';
import { IdBlock } from './id-block.js';
import { IDEMPOTENCY_TTL_SECONDS } from './idempotency.js';
import type { Pool } from '../domain/pool.js';
import { indexPartition } from './key-space.js';
import { keys } from './keys.js';
import type { Scripts } from './scripts.js';

/** What a recorded swipe did to the pair's match. */
export type MatchEffect = 'none' | 'created' | 'existing';

/** Swipes allowed per account per window (limit 0: none). */
export type SwipeLimit = { limit: number; windowSeconds: number };

export type SwipeOutcome =
  | { status: 'not_found' }
  | { status: 'rate_limited'; retryAfterMs: number }
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
      /**
       * The outbox record of the swipe's events (a match created, a super like announced): `record` when
       * written now, else only `id` on a replay; null when the swipe had no news.
       */
      pending: { id: string; record?: string } | null;
    };

/** The swipe graph: one Lua call records a swipe and creates the match a mutual like completes. */
export class SwipeRepository {
  /** Match ids come from each pool's own sequence. */
  private readonly matchIds: Record<Pool, IdBlock>;

  constructor(
    private readonly redis: Redis,
    private readonly scripts: Scripts,
    private readonly limit: SwipeLimit = { limit: 0, windowSeconds: 60 },
  ) {
    this.matchIds = { agent: new IdBlock(redis, keys.matchSeq('agent')), member: new IdBlock(redis, keys.matchSeq('member')) };
  }

  async record(pool: Pool, fromId: number, toId: number, kind: SwipeKind, now: Date, idempotencyKey?: string): Promise<SwipeOutcome> {
    const candidate = await this.matchIds[pool].take();
    const keyList = [
      keys.user(pool, fromId),
      keys.user(pool, toId),
      keys.swipes(pool, fromId),
      keys.swipes(pool, toId),
      keys.feed(pool, fromId),
      keys.pairMatch(pool, fromId, toId),
      keys.match(pool, candidate),
      keys.userMatches(pool, fromId),
      keys.userMatches(pool, toId),
      keys.poolMatches(pool),
      keys.feedFloors(pool, indexPartition(fromId)),
      keys.outbox(pool),
      keys.outboxDue(pool),
      keys.accountRateLimit('like', pool, fromId),
    ];
    if (idempotencyKey) keyList.push(keys.idempotency(pool, fromId, `likes/${toId}`, idempotencyKey));
    // On an error the candidate is not given back: the script may have used it before the reply was lost.
    const reply = await this.scripts.runDirect<string[]>('record_swipe', keyList, [
      fromId,
      toId,
      kind,
      now.getTime(),
      now.toISOString(),
      candidate,
      IDEMPOTENCY_TTL_SECONDS,
      this.limit.limit,
      this.limit.windowSeconds * 1000,
    ]);
    const [status, record = '', shared = '', pendingRecord = ''] = reply;
    if (status === 'rate_limited') {
      this.matchIds[pool].give(candidate);
      return { status: 'rate_limited', retryAfterMs: Number(record) };
    }
    if (status === 'not_found') {
      this.matchIds[pool].give(candidate);
      return { status: 'not_found' };
    }
    const [recordedKind, createdAt, effect, matchId, pendingId = ''] = record.split('|') as [SwipeKind, string, MatchEffect, string, string?];
    const replay = status === 'replay';
    if (replay || effect !== 'created') this.matchIds[pool].give(candidate);
    return {
      status: 'recorded',
      replay,
      kind: recordedKind,
      createdAt,
      effect,
      matchId: matchId ? Number(matchId) : null,
      sharedInterests: shared ? (JSON.parse(shared) as string[]) : null,
      pending: pendingId ? { id: pendingId, ...(pendingRecord ? { record: pendingRecord } : {}) } : null,
    };
  }
}
