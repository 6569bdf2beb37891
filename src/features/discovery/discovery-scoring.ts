/**
 * How discovery ranks: a candidate's score is the sum of the weights of the interests it shares with the
 * viewer, and an interest's weight is its inverse frequency over the pool, so a rare shared interest counts
 * for more than a common one. Scores are kept as integers (weight × SCORE_SCALE) so that Redis stores them
 * compactly and sums them exactly.
 */

/** How many best-scored candidates a ranked feed keeps; the rest of the pool follows, newest first. */
export const RANKED_FEED_SIZE = 100;

export const SCORE_SCALE = 1000;

/**
 * How many candidates one ranking considers at most (plus RANK_MIN_SAMPLE per commonly held interest): the
 * holders of the viewer's rarer interests whole, rarest first, and random samples of the commonest ones
 * (see src/features/discovery/feed-candidates-repository.ts). This bounds the time a ranking holds Redis whatever the pool's size. The cost:
 * a sharer of common interests only may be missed by one ranking (and the account is not spread into its
 * feed). On 100,000 agents with Zipf interests over 2,000 (the commonest held by half the pool) the feed so
 * ranked keeps about 80% of the entries and 97% of the summed score of a ranking over every sharer, for
 * about a twelfth of the Redis time (3 ms instead of 40).
 */
export const RANK_CANDIDATES = 1_000;
/** The fewest holders sampled from each commonly held interest, so that every interest is represented. */
export const RANK_MIN_SAMPLE = RANKED_FEED_SIZE;

/**
 * The integer weight of an interest held by `holders` accounts in a pool of `poolSize`:
 * `ln(1 + poolSize / holders)`, scaled. Always positive, so sharing any interest beats sharing none.
 */
export function interestWeight(poolSize: number, holders: number): number {
  const size = Math.max(poolSize, 1);
  const count = Math.min(Math.max(holders, 1), size);
  return Math.round(SCORE_SCALE * Math.log(1 + size / count));
}

/** The score shown in the API for a stored integer score. */
export const displayScore = (stored: number): number => stored / SCORE_SCALE;

/** The stored score of a candidate for a viewer: the summed weights of the interests they share. */
export function sharedScore(shared: readonly string[], weightOf: (interest: string) => number): number {
  let score = 0;
  for (const interest of shared) score += weightOf(interest);
  return score;
}
