import type { Redis } from 'ioredis';
import type { ProfileSource } from '../domain/profile.js';
import { keys, type Pool } from './keys.js';
import { decodeCard } from './profile-cards.js';
import type { Scripts } from './scripts.js';

/** A position in a feed: in the ranked part (by score) or in the rest (by creation ms), then by id. */
export type FeedPosition = { part: 'r' | 't'; score: number; id: number };
/** `card` is undefined for an account indexed before cards existed (read its profile elsewhere). */
export type FeedRow = FeedPosition & { card?: ProfileSource };
/**
 * A page's rows, and the viewer's own card. `rankedAt` (ms) is when the feed was last ranked, undefined
 * when never; `rankedSize` how many entries its ranked part still holds.
 */
export type FeedRows = { rankedAt?: number; rankedSize: number; viewer?: ProfileSource; rows: FeedRow[]; stop?: FeedPosition };
export type SpreadEntry = { owner: number; score: number };

/** How long a ranking's scratch may outlive a worker that died before spreading it. */
const SCRATCH_TTL_SECONDS = 600;

/**
 * Ranked feeds: each account's best candidates as a small sorted set, the scratch a ranking leaves for
 * spreading the account into the feeds of those sharing its interests, and the record of which feeds
 * have been ranked.
 */
export class FeedStore {
  constructor(private readonly redis: Redis, private readonly scripts: Scripts) {}

  /**
   * Replaces the account's feed with the best `size` of everyone sharing an interest (lua/rank_feed.lua).
   * `interests` and `weights` go together; dropped interests carry weight 0. Returns the scratch size.
   */
  rank(pool: Pool, id: number, interests: readonly string[], weights: readonly number[], size: number, keepScratch: boolean): Promise<number> {
    return this.scripts.run<number>(
      'rank_feed',
      [
        keys.feed(pool, id),
        keys.swipes(pool, id),
        keys.rankedFeeds(pool),
        keys.feedFloors(pool),
        keys.rankScratch(pool, id),
        ...interests.map((i) => keys.interestIndex(pool, i)),
      ],
      [id, size, Date.now(), keepScratch ? SCRATCH_TTL_SECONDS : 0, ...weights],
    );
  }

  /**
   * From the slice [first, first + count) of the scratch a ranking left, the owners whose feed the account
   * must enter, move in or leave (lua/spread_targets.lua).
   */
  async spreadTargets(pool: Pool, id: number, first: number, count: number): Promise<SpreadEntry[]> {
    const flat = await this.scripts.run<string[]>('spread_targets', [keys.rankScratch(pool, id), keys.feedFloors(pool)], [id, first, count]);
    const out: SpreadEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ owner: Number(flat[i]), score: Number(flat[i + 1]) });
    return out;
  }

  dropScratch(pool: Pool, id: number): Promise<number> {
    return this.redis.unlink(keys.rankScratch(pool, id));
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
    const ids = await this.redis.zdiff(2, keys.poolUsers(pool), keys.rankedFeeds(pool));
    return ids.map(Number);
  }

  async isRanked(pool: Pool, id: number): Promise<boolean> {
    return (await this.redis.zscore(keys.rankedFeeds(pool), String(id))) !== null;
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
