import type { RedisClient } from './redis.js';
import { RANK_CANDIDATES, RANK_MIN_SAMPLE } from '../domain/discovery-scoring.js';
import type { FeedPosition } from '../domain/page-positions.js';
import type { ProfileSource } from '../domain/profile.js';
import { bestFirst, gatherCandidates, inSteps, type Candidates } from './feed-candidates.js';
import type { Pool } from '../domain/pool.js';
import { keys } from './keys.js';
import { decodeCard } from './profile-cards.js';
import type { Scripts } from './scripts.js';

export type { FeedPosition };
/** `card` is undefined when the account has none (every account gets one when it is created): the row is skipped. */
export type FeedRow = FeedPosition & { card?: ProfileSource };
/**
 * A page's rows, and the viewer's own card. `rankedAt` (ms) is when the feed was last ranked, undefined
 * when never; `rankedSize` how many entries its ranked part still holds.
 */
export type FeedRows = { rankedAt?: number; rankedSize: number; viewer?: ProfileSource; rows: FeedRow[]; stop?: FeedPosition };
export type SpreadEntry = { owner: number; score: number };

/**
 * The most entries one Redis call of a ranking job examines (members read, memberships, scores or swipes
 * looked up): about a millisecond of Redis time. A job's work is split into calls of at most this much.
 */
export const RANK_STEP = 2_000;
/**
 * How many candidates a ranking considers at most (see RANK_CANDIDATES), and `step`, the most entries
 * one of its Redis calls examines (default RANK_STEP).
 */
export type RankBounds = { candidates: number; minSample: number; step?: number };
const DEFAULT_BOUNDS: RankBounds = { candidates: RANK_CANDIDATES, minSample: RANK_MIN_SAMPLE, step: RANK_STEP };
/** The ranked list handed to lua/rank_feed.lua holds this many more than the feed size, in case of a swipe meanwhile. */
const SPARES = 20;
/** What a ranking did: how many candidates it scored, and the feeds the account should enter or move in. */
export type Ranking = { candidates: number; targets: SpreadEntry[] };

/**
 * Ranked feeds: each account's best candidates as a small sorted set, each ranked feed's floor (for
 * spreading others into it), and the record of which feeds have been ranked.
 */
export class FeedStore {
  constructor(private readonly redis: RedisClient, private readonly scripts: Scripts) {}

  /**
   * Replaces the account's feed with the best `size` of a bounded set of candidates sharing an interest,
   * and with `spreading` also names the feeds it should enter or move in: the candidates whose feed was
   * ranked (they have a floor) and either has room (floor 0) or a lowest score the account beats (scores
   * are symmetric: the account's score in a candidate's feed is the candidate's score here). Every Redis
   * call examines at most `bounds.step` entries (src/store/feed-candidates.ts, lua/rank_feed.lua).
   * `interests` and `weights` go together.
   */
  async rank(
    pool: Pool,
    id: number,
    interests: readonly string[],
    weights: readonly number[],
    size: number,
    spreading: boolean,
    bounds: RankBounds = DEFAULT_BOUNDS,
  ): Promise<Ranking> {
    const step = bounds.step ?? RANK_STEP;
    const score = await gatherCandidates(this.redis, interests.map((i) => keys.interestIndex(pool, i)), weights, { ...bounds, step });
    const picks = await this.unswiped(pool, id, bestFirst(score), size + SPARES, step);
    const args: Array<string | number> = [id, size, Date.now()];
    for (const member of picks) args.push(member, score.get(member)!);
    await this.scripts.run('rank_feed', [keys.feed(pool, id), keys.swipes(pool, id), keys.rankedFeeds(pool), keys.feedFloors(pool)], args);
    return { candidates: score.size, targets: spreading ? await this.spreadTargets(pool, id, score, step) : [] };
  }

  /** The first `count` of `ordered` that are neither the account nor swiped by it, looked up a step at a time. */
  private async unswiped(pool: Pool, id: number, ordered: readonly string[], count: number, step: number): Promise<string[]> {
    const self = String(id);
    const chunk = Math.max(1, Math.min(step, count * 2));
    const out: string[] = [];
    for (let i = 0; i < ordered.length && out.length < count; i += chunk) {
      const slice = ordered.slice(i, i + chunk);
      const swiped = await this.redis.hmget(keys.swipes(pool, id), ...slice);
      slice.forEach((member, j) => {
        if (member !== self && swiped[j] === null && out.length < count) out.push(member);
      });
    }
    return out;
  }

  /** The candidates whose ranked feed has room or a floor their score beats, looked up a step at a time. */
  private async spreadTargets(pool: Pool, id: number, score: Candidates, step: number): Promise<SpreadEntry[]> {
    const self = String(id);
    const out: SpreadEntry[] = [];
    await inSteps([...score.keys()], step, async (owners) => {
      const floors = await this.redis.zmscore(keys.feedFloors(pool), ...owners);
      owners.forEach((owner, i) => {
        const floor = floors[i];
        const mine = score.get(owner)!;
        if (floor !== null && floor !== undefined && owner !== self && mine > Number(floor)) out.push({ owner: Number(owner), score: mine });
      });
    });
    return out;
  }

  /**
   * From one page (about `count` members, from `cursor`) of an interest set the account no longer holds,
   * the owners whose feed the account must leave or move in, scored by its current `interests` and
   * `weights` (lua/dropped_targets.lua). Page on until the returned cursor is "0".
   */
  async droppedTargets(
    pool: Pool,
    id: number,
    dropped: string,
    interests: readonly string[],
    weights: readonly number[],
    cursor: string,
    count: number,
  ): Promise<{ cursor: string; targets: SpreadEntry[] }> {
    const [next, ...flat] = await this.scripts.run<string[]>(
      'dropped_targets',
      [keys.interestIndex(pool, dropped), keys.feedFloors(pool), ...interests.map((i) => keys.interestIndex(pool, i))],
      [id, cursor, count, ...weights],
    );
    return { cursor: next ?? '0', targets: pairs(flat) };
  }

  /** Places the candidate into (score > 0) or out of (score 0) each owner's feed (lua/spread_into_feeds.lua). */
  spread(pool: Pool, candidate: number, entries: readonly SpreadEntry[], size: number): Promise<number> {
    const keyList = [keys.feedFloors(pool)];
    const args: Array<string | number> = [candidate, size];
    for (const { owner, score } of entries) {
      keyList.push(keys.feed(pool, owner), keys.swipes(pool, owner));
      args.push(owner, score);
    }
    return this.scripts.run<number>('spread_into_feeds', keyList, args);
  }

  /** The interests the account was last spread with (empty when never). */
  async spreadInterests(pool: Pool, id: number): Promise<string[]> {
    const raw = await this.redis.hget(keys.spreadInterests(pool), String(id));
    return raw ? (JSON.parse(raw) as string[]) : [];
  }

  async setSpreadInterests(pool: Pool, id: number, interests: readonly string[]): Promise<void> {
    await this.redis.hset(keys.spreadInterests(pool), String(id), JSON.stringify(interests));
  }

  /** Ids of the pool's accounts whose feed was never ranked. */
  async unranked(pool: Pool): Promise<number[]> {
    const ids = await this.redis.zdiff(2, [keys.poolUsers(pool), keys.rankedFeeds(pool)]);
    return ids.map(Number);
  }

  /** Up to `want` feed entries strictly after `after`, with their cards and the viewer's: one script call (lua/read_feed.lua). */
  async read(pool: Pool, id: number, want: number, after: FeedPosition | undefined, scanLimit: number): Promise<FeedRows> {
    const reply = await this.scripts.run<Array<string | number>>(
      'read_feed',
      [keys.feed(pool, id), keys.swipes(pool, id), keys.poolUsers(pool), keys.rankedFeeds(pool), keys.profileCards(pool)],
      [id, want, after?.part ?? '', after?.score ?? '', after?.id ?? '', scanLimit],
    );
    const rows: FeedRow[] = [];
    for (let i = 5; i < reply.length; i += 4) {
      const rowId = Number(reply[i + 1]);
      const card = reply[i + 3] as string;
      rows.push({ part: reply[i] === 'r' ? 'r' : 't', id: rowId, score: Number(reply[i + 2]), ...(card ? { card: decodeCard(rowId, card) } : {}) });
    }
    const viewer = reply[4] as string;
    return {
      ...(reply[0] !== '' ? { rankedAt: Number(reply[0]) } : {}),
      rankedSize: Number(reply[1]),
      ...(viewer ? { viewer: decodeCard(id, viewer) } : {}),
      rows,
      ...(reply[2] !== '' ? { stop: { part: 't' as const, score: Number(reply[2]), id: Number(reply[3]) } } : {}),
    };
  }
}

/** {owner, score} pairs from a flat reply [owner_1, score_1, owner_2, ...]. */
function pairs(flat: ReadonlyArray<number | string>): SpreadEntry[] {
  const out: SpreadEntry[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ owner: Number(flat[i]), score: Number(flat[i + 1]) });
  return out;
}
