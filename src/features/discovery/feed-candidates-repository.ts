import type { RedisClient } from '../../platform/redis/redis.js';

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

/** One interest of the ranking account: its weight, and its index set in each partition (`parts[p]`). */
export type InterestSets = { weight: number; parts: readonly string[] };

/**
 * Gathers and scores a ranking's candidates over the account's interests, in bounded Redis calls (none
 * examines more than `bounds.step` entries, except reading one partition's part of a set whole, at most
 * `bounds.candidates`), each on one hash slot, so a ranking never holds Redis for long, whatever the
 * pool's size.
 *
 * An interest's size is summed over its partitions (one SCARD each). The interests are taken rarest
 * first: an interest is read whole (every partition's part) while it fits in what is left of the
 * candidate budget; each commoner interest adds a random sample (SRANDMEMBER) of an even share of what is
 * then left, never fewer than `minSample`, drawn from its partitions in proportion to their sizes.
 * Scoring is exact for every candidate gathered: a whole interest's weight goes to its members as read,
 * and each sampled interest's membership is looked up (SMISMEMBER) for every candidate, in the
 * candidate's own partition. The trade-off: a sharer of common interests only that was not drawn is left
 * out of this ranking (it still shows in the feed's newest-first rest, and the next ranking draws a new
 * sample). The look-ups of every sampled interest are sent together, and `alongside` (given every
 * candidate gathered) with them: what the caller reads of the candidates costs no round trip of its own.
 */
export async function gatherCandidates(
  redis: RedisClient,
  interests: readonly InterestSets[],
  bounds: CandidateBounds,
  partitionOf: (member: string) => number,
  alongside?: (members: readonly string[]) => Promise<void>,
): Promise<Candidates> {
  // One command per partition's set (the sets lie in many hash slots), sent together by automatic pipelining.
  const allSizes = await Promise.all(interests.map((interest) => Promise.all(interest.parts.map((key) => redis.scard(key)))));
  const sets = interests
    .map((interest, i) => {
      const sizes = allSizes[i]!;
      return { ...interest, sizes, size: sizes.reduce((a, b) => a + b, 0) };
    })
    .sort((a, b) => a.size - b.size);
  const score: Candidates = new Map();
  const gather = (members: readonly string[], weight: number) => {
    for (const member of members) score.set(member, (score.get(member) ?? 0) + weight);
  };

  let k = 0;
  let room = bounds.candidates;
  for (; k < sets.length && sets[k]!.size <= room; k++) {
    const set = sets[k]!;
    const read = await Promise.all(set.parts.map((key, p) => (set.sizes[p]! > 0 ? redis.smembers(key) : Promise.resolve([]))));
    for (const members of read) gather(members, set.weight);
    room = bounds.candidates - score.size;
  }
  const sampled = sets.slice(k);
  for (let j = 0; j < sampled.length; j++) {
    const set = sampled[j]!;
    const share = Math.max(Math.floor(room / (sampled.length - j)), bounds.minSample);
    const draws = proportional(share, set.sizes);
    const drawn = await Promise.all(set.parts.map((key, p) => (draws[p]! > 0 ? redis.srandmember(key, draws[p]!) : Promise.resolve([]))));
    for (const members of drawn) gather(members, 0);
    room = Math.max(bounds.candidates - score.size, 0);
  }
  // What the caller reads of the gathered candidates goes with the membership look-ups, not after them.
  const beside = alongside?.([...score.keys()]);
  if (sampled.length === 0) {
    await beside;
    return score;
  }

  const byPartition = new Map<number, string[]>();
  for (const member of score.keys()) {
    const p = partitionOf(member);
    const list = byPartition.get(p) ?? [];
    list.push(member);
    byPartition.set(p, list);
  }
  // Every sampled interest's look-ups are sent together (each on its partition's slot, a step at most):
  // the sums are integers, so the order they are added in does not matter.
  const lookups = sampled.flatMap(({ parts, weight }) =>
    [...byPartition].map(([p, members]) =>
      inSteps(members, bounds.step, async (chunk) => {
        const held = await redis.smismember(parts[p]!, ...chunk);
        for (let i = 0; i < chunk.length; i++) if (held[i] === 1) score.set(chunk[i]!, score.get(chunk[i]!)! + weight);
      }),
    ),
  );
  await Promise.all([...lookups, beside]);
  return score;
}

/**
 * `total` split over parts in proportion to their sizes, summing to `total` (at most the sizes' sum): the
 * whole part of each share, then one more to the parts with the largest remainders (ties at random, so
 * no partition is always favoured).
 */
export function proportional(total: number, sizes: readonly number[]): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (sum === 0) return sizes.map(() => 0);
  const exact = sizes.map((size) => (Math.min(total, sum) * size) / sum);
  const out = exact.map(Math.floor);
  let left = Math.min(total, sum) - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x), tie: Math.random() })).sort((a, b) => b.rest - a.rest || a.tie - b.tie);
  for (const { i } of order) {
    if (left <= 0) break;
    if (out[i]! < sizes[i]!) {
      out[i]!++;
      left--;
    }
  }
  return out;
}

/** The candidates best first: score, then id as text (the order of ZRANGE ... REV), both descending. */
export function bestFirst(score: Candidates): string[] {
  const entries = [...score];
  entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
  return entries.map((entry) => entry[0]);
}

/** Runs `each` over consecutive chunks of at most `step` items, one after another. */
export async function inSteps<T>(items: readonly T[], step: number, each: (chunk: T[]) => Promise<void>): Promise<void> {
  const size = Math.max(1, Math.floor(step));
  for (let i = 0; i < items.length; i += size) await each(items.slice(i, i + size));
}
