import {
  interestMass,
  interestWeight,
  RANK_CANDIDATES,
  RANK_MIN_SAMPLE,
  RANKED_FEED_SIZE,
  rankScore,
  sharedScore,
} from '../../src/features/discovery/discovery-scoring.js';
import { pairInputs, type Side } from '../../src/features/discovery/reciprocal-scorer.js';
import type { Taste } from '../../src/features/discovery/swipe-taste.js';
import { genderIndex, type SimAgent } from './population.js';

/** What a ranking may see: the visible profiles and the swipes so far (never the hidden taste). */
export type RankingWorld = {
  agents: readonly SimAgent[];
  /** Accounts holding each interest string, in id order. */
  holders: ReadonlyMap<string, readonly number[]>;
  /** Whom each agent has swiped on (liked or passed): never shown again. */
  swiped: readonly ReadonlySet<number>[];
  /** Who has liked each agent so far. */
  likedBy: readonly ReadonlySet<number>[];
  /** What each agent's swipes so far say about whom it likes (the service learns it the same way). */
  tastes: readonly Taste[];
};

/**
 * The feed the service serves from a scoring: the RANKED_FEED_SIZE best scored first (score, then id,
 * descending), then the rest of the pool newest first, never the viewer nor anyone it swiped.
 */
function feedOf(scored: Array<{ id: number; score: number }>, poolSize: number, viewer: number, seen: ReadonlySet<number>, limit: number): number[] {
  scored.sort((a, b) => b.score - a.score || b.id - a.id);
  const feed = scored.slice(0, Math.min(limit, RANKED_FEED_SIZE)).map((entry) => entry.id);
  const inFeed = new Set(feed);
  for (let id = poolSize - 1; id >= 0 && feed.length < limit; id--) {
    if (id !== viewer && !seen.has(id) && !inFeed.has(id)) feed.push(id);
  }
  return feed;
}

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
    return feedOf(scored, agents.length, viewer, seen, limit);
  },
};

/** Each agent's interest mass (the summed weights of its own interests), worked out once per population. */
const masses = new WeakMap<readonly SimAgent[], number[]>();
function massesOf({ agents, holders }: RankingWorld): number[] {
  let out = masses.get(agents);
  if (!out) {
    out = agents.map((agent) => interestMass(agent.interests.map((i) => interestWeight(agents.length, holders.get(i)?.length ?? 1))));
    masses.set(agents, out);
  }
  return out;
}

/** Each interest's holders as a set, built once per population. */
const holderSets = new WeakMap<ReadonlyMap<string, readonly number[]>, Map<string, Set<number>>>();
function holderSetOf(holders: ReadonlyMap<string, readonly number[]>, interest: string): Set<number> {
  let sets = holderSets.get(holders);
  if (!sets) holderSets.set(holders, (sets = new Map()));
  let set = sets.get(interest);
  if (!set) sets.set(interest, (set = new Set(holders.get(interest) ?? [])));
  return set;
}

/**
 * The candidates a service ranking considers (src/features/discovery/feed-candidates-repository.ts): the
 * holders of the viewer's interests rarest first, whole while they fit in RANK_CANDIDATES, then a share
 * of each commoner interest (at least RANK_MIN_SAMPLE), drawn here as a stride from an offset that moves
 * with the viewer's swipes (the service draws at random); each with its exact shared-interest sum.
 */
function gatherShared(world: RankingWorld, viewer: number): Map<number, number> {
  const { agents, holders, swiped } = world;
  const mine = agents[viewer]!.interests;
  const weightOf = new Map(mine.map((i) => [i, interestWeight(agents.length, holders.get(i)?.length ?? 1)]));
  const sorted = [...mine].sort((a, b) => (holders.get(a)?.length ?? 0) - (holders.get(b)?.length ?? 0));
  const picked = new Set<number>();
  sorted.forEach((interest, k) => {
    const list = holders.get(interest) ?? [];
    const room = RANK_CANDIDATES - picked.size;
    if (list.length <= room) {
      for (const id of list) picked.add(id);
      return;
    }
    const share = Math.min(list.length, Math.max(Math.floor(room / (sorted.length - k)), RANK_MIN_SAMPLE));
    const stride = list.length / share;
    const offset = (viewer * 7919 + swiped[viewer]!.size * 104_729) % list.length;
    for (let n = 0; n < share; n++) picked.add(list[Math.floor(offset + n * stride) % list.length]!);
  });
  const shared = new Map<number, number>();
  for (const id of picked) {
    if (id === viewer || swiped[viewer]!.has(id)) continue;
    let sum = 0;
    for (const interest of mine) if (holderSetOf(holders, interest).has(id)) sum += weightOf.get(interest)!;
    shared.set(id, sum);
  }
  return shared;
}

/**
 * The reciprocal ranking, scored by the service's own functions (pairInputs, rankScore, as
 * src/features/discovery/reciprocal-scorer.ts scores a ranking): the candidates a service ranking
 * considers and everyone who already liked the viewer, by the squashed IDF sum, the harmonic mean of both
 * sides' fit (each side's taste learned from its own swipes, times the shared share of its interests),
 * the liked-you lift and recency (every simulated agent is active each round, so recency is the same for
 * all here); the RANKED_FEED_SIZE best first, then the rest newest first.
 */
export const reciprocalRanking: Ranking = {
  name: 'reciprocal',
  feed(world, viewer, limit) {
    const { agents, swiped, likedBy, tastes } = world;
    const mass = massesOf(world);
    const seen = swiped[viewer]!;
    const shared = gatherShared(world, viewer);
    for (const liker of likedBy[viewer]!) if (!seen.has(liker) && !shared.has(liker)) shared.set(liker, 0);
    const now = 0;
    const side = (id: number): Side => {
      const agent = agents[id]!;
      return { mass: mass[id]!, gender: genderIndex(agent.gender), age: agent.age, traits: { taste: tastes[id]!, lastActiveMs: now } };
    };
    const me = side(viewer);
    const scored = [...shared].map(([id, sum]) => ({ id, score: rankScore(pairInputs(me, side(id), sum, likedBy[viewer]!.has(id), now)) }));
    return feedOf(scored, agents.length, viewer, seen, limit);
  },
};

/** Every ranking the matching bench knows, by name; a new ranking is added here and compared in the same run. */
export const RANKINGS: readonly Ranking[] = [baselineRanking, reciprocalRanking];
