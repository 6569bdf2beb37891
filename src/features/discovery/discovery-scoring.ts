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

/**
 * The reciprocal ranking. A feed entry's score adds four parts, each shown in `score_breakdown`:
 *
 * - interests: the IDF sum of the shared interests (sharedScore), squashed into [0, 1) so that it only
 *   orders candidates who fit both ways equally well;
 * - reciprocal: the harmonic mean of the two one-sided fits, how much of the viewer's interest weight the
 *   candidate shares and how much of the candidate's the viewer shares (0 to 1): a candidate whose
 *   interests the viewer covers only thinly ranks below one who fits both ways;
 * - liked_you: a fixed lift when the candidate has already liked (or super liked) the viewer;
 * - recency: up to RECENCY_WEIGHT for a candidate active lately, falling to 0 over RECENCY_DAYS.
 *
 * Every part but liked_you and recency is symmetric, so a candidate's score in a viewer's feed is the
 * viewer's in the candidate's, apart from those two (which the spreading and the like add per feed).
 */
export const INTERESTS_WEIGHT = 0.25;
/** How big a shared-interest sum (in display units) counts for half of INTERESTS_WEIGHT. */
export const INTERESTS_HALF = 5;
export const RECIPROCAL_WEIGHT = 1;
export const LIKED_YOU_BONUS = 1;
export const RECENCY_WEIGHT = 0.1;
export const RECENCY_DAYS = 14;
const DAY_MS = 86_400_000;

/** The integer interest mass of an account: the summed weights of its own interests. */
export const interestMass = (weights: readonly number[]): number => weights.reduce((sum, w) => sum + w, 0);

/** The interests part (display units) of a stored shared-interest sum. */
export function interestsPart(shared: number): number {
  const x = Math.max(shared, 0) / SCORE_SCALE;
  return (INTERESTS_WEIGHT * x) / (x + INTERESTS_HALF);
}

/** How much a one-sided fit keeps when the two share no interest (the rest grows with the shared share). */
export const COVERAGE_FLOOR = 0.3;

/**
 * One side's interest in the other, 0 to 1: its taste's fit for the other's gender and age (swipe-taste.ts),
 * times how much of its own interest mass the two share (COVERAGE_FLOOR when nothing, 1 when all).
 */
export function oneSidedFit(shared: number, ownMass: number, tasteFit: number): number {
  const coverage = shared <= 0 ? 0 : Math.min(1, shared / Math.max(ownMass, shared));
  return Math.max(0, Math.min(1, tasteFit)) * (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage);
}

/** The reciprocal part: the harmonic mean of the two one-sided fits (0 when either is 0). */
export function reciprocalPart(viewerSide: number, candidateSide: number): number {
  const sum = viewerSide + candidateSide;
  return sum <= 0 ? 0 : (RECIPROCAL_WEIGHT * 2 * viewerSide * candidateSide) / sum;
}

/** The recency part for an account last active at `lastActiveMs` (undefined: never seen). */
export function recencyPart(lastActiveMs: number | undefined, nowMs: number): number {
  if (lastActiveMs === undefined) return 0;
  const days = Math.max(0, nowMs - lastActiveMs) / DAY_MS;
  return days >= RECENCY_DAYS ? 0 : RECENCY_WEIGHT * (1 - days / RECENCY_DAYS);
}

export type ScoreBreakdown = { interests: number; reciprocal: number; liked_you: boolean; recency: number; total: number };

/**
 * What a candidate's score is made of: the shared-interest sum, both interest masses, how well each side's
 * taste fits the other (tasteFit, 0 to 1), whether the candidate liked the viewer, when it was last active.
 */
export type ScoreInputs = {
  shared: number;
  viewerMass: number;
  candidateMass: number;
  viewerFit: number;
  candidateFit: number;
  likedYou: boolean;
  lastActiveMs?: number;
  nowMs: number;
};

/** The parts of a score and their total, rounded as shown. */
export function scoreBreakdown(input: ScoreInputs): ScoreBreakdown {
  const round = (x: number) => Math.round(x * SCORE_SCALE) / SCORE_SCALE;
  const interests = round(interestsPart(input.shared));
  const reciprocal = round(
    reciprocalPart(oneSidedFit(input.shared, input.viewerMass, input.viewerFit), oneSidedFit(input.shared, input.candidateMass, input.candidateFit)),
  );
  const recency = round(recencyPart(input.lastActiveMs, input.nowMs));
  const total = round(interests + reciprocal + recency + (input.likedYou ? LIKED_YOU_BONUS : 0));
  return { interests, reciprocal, liked_you: input.likedYou, recency, total };
}

/** The stored (integer) score of a candidate: its total × SCORE_SCALE. */
export const rankScore = (input: ScoreInputs): number => Math.round(scoreBreakdown(input).total * SCORE_SCALE);
