import { birthRange, type BrowseFilters } from './browse-schemas.js';
import { displayScore, RANKED_FEED_SIZE, type ScoreBreakdown } from './discovery-scoring.js';
import { explainScores, interestWeights } from './score-breakdowns.js';
import { sharedInterests } from '../accounts/index.js';
import { publicProfile, type ProfileSource, type PublicProfile } from '../accounts/index.js';
import { filterGroups, type DiscoveryIndexRepository } from './discovery-index-repository.js';
import type { FeedCard, FeedPosition, FeedRepository } from './feed-repository.js';
import type { Pool } from '../../platform/core/pool.js';
import type { Principal } from '../../platform/core/principal.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import { isStoreFullError } from '../../platform/redis/redis-errors.js';
import type { FeedRanker, RankingScheduler } from './feed-ranker.js';
import { DEFAULT_CONFIG } from '../../config.js';
import { DAY_MS } from '../../platform/core/dates.js';

export type FeedEntry = { user: PublicProfile; score: number; score_breakdown: ScoreBreakdown; shared_interests: string[] };
/**
 * A page of the feed, with about how many unswiped candidates the caller has left in the whole feed (not
 * only after this page) and whether none is left.
 */
export type FeedPage = Page<FeedEntry, FeedPosition> & { remaining: number; exhausted: boolean };
/** A position in browse's newest-first order: the last account id shown (or examined). */
export type BrowsePosition = { id: number };

export type DiscoveryLimits = {
  /**
   * Most accounts a page of the feed's unranked rest looks at before answering (each costs about three
   * entries: read, feed look-up, swipe look-up), so a feed page keeps to about the browse budget.
   */
  scanLimit: number;
  /** A browse filter holding at most this many accounts is read whole rather than walking the pool. */
  browseDriverLimit: number;
  /**
   * Most entries (index members read, memberships and scores looked up) one browse page examines before
   * answering, whatever the query: what bounds how long a browse holds Redis (see lua/browse-2+.lua).
   */
  browseBudget?: number;
};
/**
 * About 2–3 ms of Redis time at 100,000 agents on a busy 2-core machine (about 1 µs an entry;
 * bench/adversarial-browse.ts), over the whole page: each index partition's call gets an equal share
 * (see browseShare in src/features/discovery/discovery-index-repository.ts).
 */
export const BROWSE_BUDGET = 2_000;
const DEFAULT_LIMITS: DiscoveryLimits = { scanLimit: Math.floor(BROWSE_BUDGET / 3), browseDriverLimit: 5_000, browseBudget: BROWSE_BUDGET };
/** A feed whose ranked part was swiped down below this is ranked again (at most once per TOP_UP_AFTER_MS). */
const TOP_UP_BELOW = RANKED_FEED_SIZE / 2;
const TOP_UP_AFTER_MS = 60_000;

/** The discovery reads: the ranked feed and browse. */
export class DiscoveryService {
  constructor(
    private readonly index: DiscoveryIndexRepository,
    private readonly feeds: FeedRepository,
    private readonly ranker: FeedRanker,
    private readonly scheduler: RankingScheduler,
    private readonly limits: DiscoveryLimits = DEFAULT_LIMITS,
    /** How long a pass keeps its target out of the feed, ms. */
    private readonly passExpiryMs: number = DEFAULT_CONFIG.PASS_EXPIRY_DAYS * DAY_MS,
  ) {}

  /**
   * One page of the viewer's feed: the ranked part best first, then the rest of the pool newest first.
   * A feed no worker has ranked yet is ranked here first, so a reader never sees an unranked feed; one
   * whose ranked part has been swiped down gets a new ranking queued, to refill it with the next best.
   * While Redis is full a ranking cannot be stored: the page is served unranked (newest first).
   * Passes older than the expiry leave first (a bounded step per read), so their targets may return.
   *
   * Two round trips when the ranked part fills the page: first, sent together, the passes' expiry, the
   * page's ranked part, the reader's own card and ranking time, and the pool's size, while `admitted` (the
   * caller's rate limit) is counted: nothing more is sent unless it admits the request; then the page's
   * cards, one call per index partition they lie in.
   */
  async feed({ pool, userId }: Principal, { limit, after }: PageRequest<FeedPosition>, admitted: Promise<void> = Promise.resolve()): Promise<FeedPage> {
    const { scanLimit } = this.limits;
    const touched = this.feeds.traits.touch(pool, userId).catch(() => {}); // activity is a hint: the page is served either way
    // Sent in this order on the viewer's shard, so the page is read with the expired passes gone.
    const settled = this.settlePasses(pool, userId);
    const firstRead = this.feeds.firstRead(pool, userId, limit + 1, after);
    const [, { swiped, hidden }, first, { rankedAt, reader }, poolSize] = await Promise.all([
      admitted,
      settled,
      firstRead,
      this.feeds.reader(pool, userId),
      this.index.discoverableCount(pool),
    ]);
    let rows = await this.feeds.rest(pool, userId, limit + 1, after, scanLimit, first);
    if (rankedAt === undefined && (await this.rankUnlessFull(pool, userId))) {
      rows = await this.feeds.read(pool, userId, limit + 1, after, scanLimit);
    } else if (rows.rankedSize < TOP_UP_BELOW && rankedAt !== undefined && Date.now() - rankedAt > TOP_UP_AFTER_MS) {
      this.scheduler.schedule(pool, userId).catch(() => {}); // best effort: the page is served either way
    }

    const shown = rows.rows.slice(0, limit);
    const [found, weights] = await Promise.all([
      reader
        ? this.feeds.cards(
            pool,
            shown.map((row) => row.id),
          )
        : new Map<number, FeedCard>(),
      reader ? interestWeights(this.index, pool, reader.card.interests) : new Map<string, number>(),
    ]);
    const mine = reader?.card.interests ?? [];
    const entries = shown.flatMap((row) => {
      const entry = found.get(row.id);
      return entry ? [{ row, entry, shared: sharedInterests(mine, entry.card.interests), likedYou: rows.likedBy.has(row.id) }] : [];
    });
    const now = new Date();
    const parts = reader ? explainScores(weights, reader, entries, now) : [];
    const items = entries.flatMap(({ row, entry, shared }, i) => {
      const breakdown = parts[i];
      if (!breakdown) return [];
      // A ranked entry keeps the score it was ranked with (its order); the breakdown is as of now.
      return [
        {
          user: publicProfile(entry.card, now),
          score: row.part === 'r' ? displayScore(row.score) : breakdown.total,
          score_breakdown: breakdown,
          shared_interests: shared,
        },
      ];
    });
    await touched;

    const last = shown[shown.length - 1];
    const next = rows.rows.length > limit && last ? last : (rows.stop ?? null);
    const remaining = remainingCandidates(poolSize - 1 - swiped - hidden, items.length, after === undefined && next === null);
    return { items, next, remaining, exhausted: remaining === 0 };
  }

  /**
   * Expires the caller's old passes; the swipes still standing and the accounts a block keeps from the
   * caller. While Redis is full nothing expires (it is a write).
   */
  private async settlePasses(pool: Pool, userId: number): Promise<{ swiped: number; hidden: number }> {
    try {
      const now = Date.now();
      return await this.feeds.settlePasses(pool, userId, now, now - this.passExpiryMs);
    } catch (error) {
      if (isStoreFullError(error)) return this.feeds.swipeCount(pool, userId);
      throw error;
    }
  }

  private async rankUnlessFull(pool: Pool, userId: number): Promise<boolean> {
    try {
      return await this.ranker.rank(pool, userId);
    } catch (error) {
      if (isStoreFullError(error)) return false;
      throw error;
    }
  }

  /**
   * One page of the pool's accounts passing every filter (AND), newest first; never the viewer. A page
   * whose look-up budget ran out is short (maybe empty) and still has a `next` position: only a page
   * without one is the end.
   */
  async browse(
    { pool, userId }: Principal,
    filters: BrowseFilters,
    { limit, after }: PageRequest<BrowsePosition>,
  ): Promise<Page<PublicProfile, BrowsePosition>> {
    const birth = birthRange(filters);
    if (birth && birth.min > birth.max) return { items: [], next: null };
    const result = await this.index.browse({
      pool,
      viewerId: userId,
      groups: (part) => filterGroups(pool, part, filters),
      birth,
      genders: filters.gender,
      want: limit + 1,
      after,
      driverLimit: this.limits.browseDriverLimit,
      budget: this.limits.browseBudget ?? BROWSE_BUDGET,
    });
    const shown = result.rows.slice(0, limit);
    const found = shown.map((row) => row.card);
    const now = new Date();
    const items = found.filter((user): user is ProfileSource => user !== undefined).map((user) => publicProfile(user, now));
    const last = shown[shown.length - 1];
    const next = result.rows.length > limit && last ? { id: last.id } : (result.stop ?? null);
    return { items, next };
  }
}

/**
 * About how many unswiped candidates are left: the pool's discoverable accounts less the caller, its
 * standing swipes and the accounts a block keeps from it (`estimate`: a suspended account, or one a block
 * hides, counts as one that left), never fewer than the page shows, and none when a read from the top
 * found nothing (`readWhole`: the first page is empty and has no next page).
 */
function remainingCandidates(estimate: number, shown: number, readWhole: boolean): number {
  if (readWhole && shown === 0) return 0;
  return Math.max(estimate, shown, 0);
}
