import type { RedisClient } from './redis.js';

/** How many candidates a ranking considers, and how many entries one Redis call may examine. */
export type CandidateBounds = {
  /** Candidates gathered at most (plus `minSample` per sampled interest). */
  candidates: number;
  /** The fewest members drawn from a sampled interest set. */
  minSample: number;
  /** The most entries (members read or looked up) one Redis call of a ranking examines. */
  step: number;
};

/** Every candidate gathered, each with its exact summed score (its weights over every interest set). */
export type Candidates = Map<string, number>;

/**
 * Gathers and scores a ranking's candidates over the account's interest sets, in bounded Redis calls
 * (none examines more than `bounds.step` entries, except reading one set whole, at most
 * `bounds.candidates`), so a ranking never holds Redis for long, whatever the pool's size.
 *
 * The sets are taken rarest first: a set is read whole while it fits in what is left of the candidate
 * budget; each commoner set adds a random sample (SRANDMEMBER) of an even share of what is then left,
 * never fewer than `minSample`. Scoring is exact for every candidate gathered: a whole set's weight goes
 * to its members as read, and each sampled set's membership is looked up (SMISMEMBER) for every candidate.
 * The trade-off: a sharer of common interests only that was not drawn is left out of this ranking (it
 * still shows in the feed's newest-first rest, and the next ranking draws a new sample).
 */
export async function gatherCandidates(redis: RedisClient, setKeys: readonly string[], weights: readonly number[], bounds: CandidateBounds): Promise<Candidates> {
  const sizes = await Promise.all(setKeys.map((key) => redis.scard(key)));
  const sets = setKeys.map((key, i) => ({ key, weight: weights[i] ?? 0, size: sizes[i] ?? 0 })).sort((a, b) => a.size - b.size);
  const score: Candidates = new Map();
  const gather = (members: readonly string[], weight: number) => {
    for (const member of members) score.set(member, (score.get(member) ?? 0) + weight);
  };

  let k = 0;
  let room = bounds.candidates;
  for (; k < sets.length && sets[k]!.size <= room; k++) {
    gather(await redis.smembers(sets[k]!.key), sets[k]!.weight);
    room = bounds.candidates - score.size;
  }
  const sampled = sets.slice(k);
  for (let j = 0; j < sampled.length; j++) {
    const share = Math.max(Math.floor(room / (sampled.length - j)), bounds.minSample);
    gather(await redis.srandmember(sampled[j]!.key, share), 0);
    room = Math.max(bounds.candidates - score.size, 0);
  }
  if (sampled.length === 0) return score;

  const candidates = [...score.keys()];
  for (const { key, weight } of sampled) {
    await inSteps(candidates, bounds.step, async (chunk) => {
      const held = await redis.smismember(key, ...chunk);
      chunk.forEach((member, i) => {
        if (held[i] === 1) score.set(member, score.get(member)! + weight);
      });
    });
  }
  return score;
}

/** The candidates best first: score, then id as text (the order of ZRANGE ... REV), both descending. */
export function bestFirst(score: Candidates): string[] {
  return [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || (a < b ? 1 : a > b ? -1 : 0));
}

/** Runs `each` over consecutive chunks of at most `step` items, one after another. */
export async function inSteps<T>(items: readonly T[], step: number, each: (chunk: T[]) => Promise<void>): Promise<void> {
  const size = Math.max(1, Math.floor(step));
  for (let i = 0; i < items.length; i += size) await each(items.slice(i, i + size));
}
