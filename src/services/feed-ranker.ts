import { interestWeight, RANKED_FEED_SIZE } from '../domain/discovery-scoring.js';
import { indexedProfile, type DiscoveryIndex } from '../store/discovery-index.js';
import type { FeedStore, SpreadEntry } from '../store/feed-store.js';
import type { Pool } from '../store/keys.js';
import type { UserRepository } from '../store/user-repository.js';

/** Asks for an account's feed to be ranked (and the account spread into others' feeds) soon. */
export interface RankingScheduler {
  schedule(pool: Pool, userId: number): Promise<void>;
}

export type RefreshOutcome = { sharers: number; targets: number; feedsChanged: number; rankMs: number; spreadMs: number };

/** The scratch is sifted for spread targets in slices of this many sharers, one script call each. */
const TARGET_SLICE = 2_000;
/** Targets are spread in chunks of this many feeds, one script call each. */
const SPREAD_CHUNK = 250;

/**
 * Ranks feeds. Redis does the heavy lifting (a weighted ZUNIONSTORE over the account's interest sets);
 * this computes the weights and moves the result along in chunks.
 */
export class FeedRanker {
  constructor(
    private readonly index: DiscoveryIndex,
    private readonly feeds: FeedStore,
    private readonly users: UserRepository,
  ) {}

  /**
   * The job of one account: rank its own feed, then place it into (or take it out of) the ranked feeds of
   * those who share (or shared) an interest with it. Idempotent, so a retried or re-run job is harmless.
   */
  async refresh(pool: Pool, id: number): Promise<RefreshOutcome | undefined> {
    const started = performance.now();
    const ranked = await this.rankFeed(pool, id, true);
    if (!ranked) return undefined;
    const rankMs = performance.now() - started;
    const slices: Array<Promise<SpreadEntry[]>> = [];
    for (let first = 0; first < ranked.sharers; first += TARGET_SLICE) slices.push(this.feeds.spreadTargets(pool, id, first, TARGET_SLICE));
    const targets = (await Promise.all(slices)).flat();
    const chunks: Array<Promise<number>> = [];
    for (let i = 0; i < targets.length; i += SPREAD_CHUNK) {
      chunks.push(this.feeds.spread(pool, id, targets.slice(i, i + SPREAD_CHUNK), RANKED_FEED_SIZE));
    }
    const changed = (await Promise.all(chunks)).reduce((a, b) => a + b, 0);
    await Promise.all([this.feeds.setSpreadInterests(pool, id, ranked.interests), this.feeds.dropScratch(pool, id)]);
    return { sharers: ranked.sharers, targets: targets.length, feedsChanged: changed, rankMs, spreadMs: performance.now() - started - rankMs };
  }

  /** Ranks the account's own feed only (what a read does when no worker has ranked it yet). */
  async rank(pool: Pool, id: number): Promise<boolean> {
    return (await this.rankFeed(pool, id, false)) !== undefined;
  }

  /** Accounts of the pool whose feed was never ranked. */
  unranked(pool: Pool): Promise<number[]> {
    return this.feeds.unranked(pool);
  }

  /** An account saved while discovery did not follow (an older deployment, a crash in between): index it now. */
  private async indexFromAccount(pool: Pool, id: number) {
    const user = await this.users.find(pool, id);
    if (!user) return undefined;
    await this.index.save(pool, id, user);
    return indexedProfile(user);
  }

  private async rankFeed(pool: Pool, id: number, keepScratch: boolean) {
    const [indexed, spread] = await Promise.all([this.index.indexed(pool, id), this.feeds.spreadInterests(pool, id)]);
    const profile = indexed ?? (await this.indexFromAccount(pool, id));
    if (!profile) return undefined;
    const { interests } = profile;
    const dropped = spread.filter((interest) => !interests.includes(interest));
    const { poolSize, counts } = await this.index.holderCounts(pool, interests);
    const weights = counts.map((holders) => interestWeight(poolSize, holders));
    const sharers = await this.feeds.rank(pool, id, [...interests, ...dropped], [...weights, ...dropped.map(() => 0)], RANKED_FEED_SIZE, keepScratch);
    return { interests, sharers };
  }
}
