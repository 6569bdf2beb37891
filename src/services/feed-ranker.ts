import { interestWeight, RANKED_FEED_SIZE } from '../domain/discovery-scoring.js';
import { indexedProfile, type DiscoveryIndex } from '../store/discovery-index.js';
import type { FeedStore, RankBounds, SpreadEntry } from '../store/feed-store.js';
import type { Pool } from '../store/keys.js';
import type { UserRepository } from '../store/user-repository.js';

/** Asks for an account's feed to be ranked (and the account spread into others' feeds) soon. */
export interface RankingScheduler {
  schedule(pool: Pool, userId: number): Promise<void>;
}

export type RefreshOutcome = { candidates: number; targets: number; feedsChanged: number; rankMs: number; spreadMs: number };

/** The holders of a dropped interest are sifted in pages of about this many, one script call each. */
const DROPPED_PAGE = 1_000;
/** Targets are spread in chunks of this many feeds, one script call each. */
const SPREAD_CHUNK = 250;

/**
 * Ranks feeds. Redis does the heavy lifting (lua/rank_feed.lua scores a bounded set of candidates);
 * this computes the weights and moves the result along in chunks, each script call doing bounded work.
 */
export class FeedRanker {
  constructor(
    private readonly index: DiscoveryIndex,
    private readonly feeds: FeedStore,
    private readonly users: UserRepository,
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
    const leaving = await Promise.all(ranked.dropped.map((interest) => this.droppedTargets(pool, id, interest, ranked.interests, ranked.weights)));
    // An owner found twice (a candidate that also held a dropped interest) has the same score both times.
    const byOwner = new Map([...ranked.targets, ...leaving.flat()].map((entry) => [entry.owner, entry] as const));
    const targets = [...byOwner.values()];
    const chunks: Array<Promise<number>> = [];
    for (let i = 0; i < targets.length; i += SPREAD_CHUNK) {
      chunks.push(this.feeds.spread(pool, id, targets.slice(i, i + SPREAD_CHUNK), RANKED_FEED_SIZE));
    }
    const changed = (await Promise.all(chunks)).reduce((a, b) => a + b, 0);
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

  /** An account saved while discovery did not follow (an older deployment, a crash in between): index it now. */
  private async indexFromAccount(pool: Pool, id: number) {
    const updated = await this.users.update(pool, id, {});
    return updated ? indexedProfile(updated.user) : undefined;
  }

  private async rankFeed(pool: Pool, id: number, spreading: boolean) {
    const [indexed, spread] = await Promise.all([this.index.indexed(pool, id), this.feeds.spreadInterests(pool, id)]);
    const profile = indexed ?? (await this.indexFromAccount(pool, id));
    if (!profile) return undefined;
    const { interests } = profile;
    const dropped = spread.filter((interest) => !interests.includes(interest));
    const { poolSize, counts } = await this.index.holderCounts(pool, interests);
    const weights = counts.map((holders) => interestWeight(poolSize, holders));
    const { candidates, targets } = await this.feeds.rank(pool, id, interests, weights, RANKED_FEED_SIZE, spreading, this.bounds);
    return { interests, weights, dropped, candidates, targets };
  }

  /** Every owner holding the dropped interest whose feed the account must leave or move in, page by page. */
  private async droppedTargets(pool: Pool, id: number, dropped: string, interests: readonly string[], weights: readonly number[]) {
    const out: SpreadEntry[] = [];
    let cursor = '0';
    do {
      const page = await this.feeds.droppedTargets(pool, id, dropped, interests, weights, cursor, DROPPED_PAGE);
      out.push(...page.targets);
      cursor = page.cursor;
    } while (cursor !== '0');
    return out;
  }
}
