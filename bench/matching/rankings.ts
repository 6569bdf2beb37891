import { interestWeight, RANKED_FEED_SIZE, sharedScore } from '../../src/features/discovery/discovery-scoring.js';
import type { SimAgent } from './population.js';

/** What a ranking may see: the visible profiles and the swipes so far (never the hidden taste). */
export type RankingWorld = {
  agents: readonly SimAgent[];
  /** Accounts holding each interest string, in id order. */
  holders: ReadonlyMap<string, readonly number[]>;
  /** Whom each agent has swiped on (liked or passed): never shown again. */
  swiped: readonly ReadonlySet<number>[];
  /** Who has liked each agent so far. */
  likedBy: readonly ReadonlySet<number>[];
};

/** A named ranking: the feed of `viewer`, best first, at most `limit` unswiped candidates. */
export type Ranking = { name: string; feed(world: RankingWorld, viewer: number, limit: number): number[] };

/**
 * Today's ranking (src/features/discovery/feed-ranker.ts): candidates sharing an interest string, scored by
 * the summed IDF weights of the shared interests (interestWeight, sharedScore), the RANKED_FEED_SIZE best
 * first; the rest of the pool follows newest first. The pool is small enough here that every sharer is
 * considered (the service samples the commonest interests' holders above RANK_CANDIDATES).
 */
export const baselineRanking: Ranking = {
  name: 'baseline',
  feed(world, viewer, limit) {
    const { agents, holders, swiped } = world;
    const seen = swiped[viewer]!;
    const shared = new Map<number, string[]>();
    const weights = new Map<string, number>();
    for (const interest of agents[viewer]!.interests) {
      const list = holders.get(interest) ?? [];
      weights.set(interest, interestWeight(agents.length, list.length));
      for (const other of list) {
        if (other === viewer || seen.has(other)) continue;
        const entry = shared.get(other);
        if (entry) entry.push(interest);
        else shared.set(other, [interest]);
      }
    }
    const weightOf = (interest: string) => weights.get(interest)!;
    const scored = [...shared].map(([id, list]) => ({ id, score: sharedScore(list, weightOf) }));
    scored.sort((a, b) => b.score - a.score || b.id - a.id);
    const feed = scored.slice(0, Math.min(limit, RANKED_FEED_SIZE)).map((entry) => entry.id);
    const inFeed = new Set(feed);
    for (let id = agents.length - 1; id >= 0 && feed.length < limit; id--) {
      if (id !== viewer && !seen.has(id) && !inFeed.has(id)) feed.push(id);
    }
    return feed;
  },
};

/** Every ranking the matching bench knows, by name; a new ranking is added here and compared in the same run. */
export const RANKINGS: readonly Ranking[] = [baselineRanking];
