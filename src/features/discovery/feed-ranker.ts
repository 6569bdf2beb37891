import { interestMass, interestWeight, RANKED_FEED_SIZE } from './discovery-scoring.js';
import { GENDERS, type Gender } from '../accounts/index.js';
import type { DiscoveryIndexRepository } from './discovery-index-repository.js';
import { RANK_STEP, type FeedRepository, type RankBounds, type SpreadEntry } from './feed-repository.js';
import type { Pool } from '../../platform/core/pool.js';
import { ALL_PARTITIONS } from '../../platform/redis/key-space.js';

/** Asks for an account's feed to be ranked (and the account spread into others' feeds) soon. */
export interface RankingScheduler {
  schedule(pool: Pool, userId: number): Promise<void>;
}

export type RefreshOutcome = { candidates: number; targets: number; feedsChanged: number; rankMs: number; spreadMs: number };

/**
 * What spreading into one feed costs, counted in entries (lua/spread_into_feeds-4+.lua: about ten look-ups
 * and writes of a few entries each, maybe a new feed to create); one script call spreads into at most
 * a step's worth of feeds of one shard (20 at the default step).
 */
const SPREAD_COST_PER_FEED = 100;

/**
 * Ranks feeds. The work of a job is split into bounded Redis calls, each on one hash slot (none
 * examines more than a step of entries, RANK_STEP), so a job holds Redis (or a cluster node) for a
 * millisecond or two at a time at most, whatever the pool's size: gathering and scoring candidates over
 * the index partitions, storing the feed (lua/rank_feed-4.lua) and its ranked mark and floor, sifting the
 * holders of a dropped interest page by page in every partition, and spreading into other feeds, one
 * call per owners' shard. Calls on different slots are sent together.
 */
export class FeedRanker {
  constructor(
    private readonly index: DiscoveryIndexRepository,
    private readonly feeds: FeedRepository,
    private readonly bounds?: RankBounds,
  ) {}

  /**
   * The job of one account: rank its own feed, then place it into the ranked feeds of the candidates its
   * ranking considered (a bounded set of those sharing an interest, see RANK_CANDIDATES), and take it out
   * of (or move it in) the feeds of everyone holding an interest it dropped. Idempotent, so a retried or
   * re-run job is harmless.
   */
  async refresh(pool: Pool, id: number): Promise<RefreshOutcome | undefined> {
    const started = performance.now();
    const ranked = await this.rankFeed(pool, id, true);
    if (!ranked) return undefined;
    const rankMs = performance.now() - started;
    const leaving: SpreadEntry[] = [];
    for (const interest of ranked.dropped) leaving.push(...(await this.droppedTargets(pool, id, interest, ranked.interests, ranked.weights)));
    // An owner found twice (a candidate that also held a dropped interest) keeps its ranking's score.
    const byOwner = new Map([...(await this.rescored(pool, id, ranked.weights, leaving)), ...ranked.targets].map((entry) => [entry.owner, entry] as const));
    const targets = [...byOwner.values()];
    const perCall = Math.max(1, Math.floor(this.step / SPREAD_COST_PER_FEED));
    // Owners' feeds live in their shards: one bounded call per shard (at most perCall feeds each), a step's
    // worth of owners' floors read at a time.
    let changed = 0;
    for (let i = 0; i < targets.length; i += this.step) {
      changed += await this.feeds.spread(pool, id, targets.slice(i, i + this.step), RANKED_FEED_SIZE, perCall);
    }
    await this.feeds.setSpreadInterests(pool, id, ranked.interests);
    return { candidates: ranked.candidates, targets: targets.length, feedsChanged: changed, rankMs, spreadMs: performance.now() - started - rankMs };
  }

  /** Ranks the account's own feed only (what a read does when no worker has ranked it yet). */
  async rank(pool: Pool, id: number): Promise<boolean> {
    return (await this.rankFeed(pool, id, false)) !== undefined;
  }

  /** Accounts of the pool whose feed was never ranked. */
  unranked(pool: Pool): Promise<number[]> {
    return this.feeds.unranked(pool);
  }

  private async rankFeed(pool: Pool, id: number, spreading: boolean) {
    const [profile, spread] = await Promise.all([this.index.indexed(pool, id), this.feeds.spreadInterests(pool, id)]);
    if (!profile) return undefined;
    const { interests } = profile;
    const dropped = spread.filter((interest) => !interests.includes(interest));
    const { poolSize, counts } = await this.index.holderCounts(pool, interests);
    const weights = counts.map((holders) => interestWeight(poolSize, holders));
    const traits = { gender: GENDERS.indexOf(profile.gender as Gender), birth: profile.birth };
    const { candidates, targets } = await this.feeds.rank(pool, id, interests, weights, RANKED_FEED_SIZE, spreading, this.bounds, traits);
    return { interests, weights, dropped, candidates, targets };
  }

  /**
   * The dropped interests' owners come with shared-interest sums: those still sharing some get the
   * account's reciprocal score in their feed; those sharing none (0) leave it.
   */
  private async rescored(pool: Pool, id: number, weights: readonly number[], leaving: readonly SpreadEntry[]): Promise<SpreadEntry[]> {
    const sharing = new Map(leaving.filter((entry) => entry.score > 0).map((entry) => [String(entry.owner), entry.score] as const));
    if (sharing.size === 0) return [...leaving];
    const scores = await this.feeds.spreadScores(pool, id, interestMass(weights), sharing, this.step);
    return leaving.map((entry) => (entry.score > 0 ? { owner: entry.owner, score: scores.get(String(entry.owner)) ?? entry.score } : entry));
  }

  /** The most entries one Redis call of a job examines. */
  private get step(): number {
    return this.bounds?.step ?? RANK_STEP;
  }

  /**
   * Every owner holding the dropped interest whose feed the account must leave or move in, partition by
   * partition and page by page;
   * a page's holders are each looked up in every current interest set, so pages shrink as interests grow.
   */
  private async droppedTargets(pool: Pool, id: number, dropped: string, interests: readonly string[], weights: readonly number[]) {
    const out: SpreadEntry[] = [];
    const pageSize = Math.max(10, Math.floor(this.step / (interests.length + 2)));
    // The partitions are sifted side by side, each a page at a time.
    await Promise.all(
      ALL_PARTITIONS.map(async (part) => {
        let cursor = '0';
        do {
          const page = await this.feeds.droppedTargets(pool, id, dropped, interests, weights, part, cursor, pageSize);
          out.push(...page.targets);
          cursor = page.cursor;
        } while (cursor !== '0');
      }),
    );
    return out;
  }
}
