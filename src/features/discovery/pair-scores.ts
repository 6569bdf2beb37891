import { interestsPart, LIKED_YOU_BONUS, oneSidedFit, reciprocalPart, recencyPart, SCORE_SCALE } from './discovery-scoring.js';
import { NO_TASTE, tasteFit } from './swipe-taste.js';
import type { Traits } from './rank-traits-repository.js';

/** One side of a pair as the score sees it. */
export type Side = { mass: number; gender?: number; age?: number; traits: Traits };

const round = (x: number): number => Math.round(x * SCORE_SCALE) / SCORE_SCALE;
const NO_TRAITS: Traits = Object.freeze({ taste: NO_TASTE });

/**
 * A ranking's stored scores, one viewer against many candidates, worked out as
 * `rankScore(pairInputs(viewer, candidate, ...))` and `rankScore(pairInputs(candidate, viewer, ...))` work
 * them out (the same parts, rounded the same way, so the same integers), without the objects those build
 * per candidate: what depends on the viewer alone (its age's reference date, its recency) is worked out
 * once, and a candidate's two scores share their interests part and taste fits.
 */
export class PairScorer {
  /** The candidate's score in the viewer's feed (with the liked-you lift when it liked the viewer). */
  feed = 0;
  /** The viewer's score in the candidate's feed (without the lift, which the feed scripts add). */
  spread = 0;
  private readonly year: number;
  private readonly monthDay: number;
  private readonly viewerRecency: number;

  constructor(
    private readonly viewer: Side,
    private readonly nowMs: number,
  ) {
    const now = new Date(nowMs);
    this.year = now.getUTCFullYear();
    this.monthDay = (now.getUTCMonth() + 1) * 100 + now.getUTCDate();
    this.viewerRecency = round(recencyPart(viewer.traits.lastActiveMs, nowMs));
  }

  /**
   * Scores one candidate from its traits (undefined: none stored) and the pair's shared-interest sum; a
   * candidate never ranked counts with the viewer's mass. Sets `feed`, and `spread` when `spreading`.
   */
  score(candidate: Traits | undefined, shared: number, likedYou: boolean, spreading: boolean): void {
    const t = candidate ?? NO_TRAITS;
    const me = this.viewer;
    const age = t.birth === undefined ? undefined : this.ageOf(t.birth);
    const mass = t.mass || me.mass;
    const viewerFit = tasteFit(me.traits.taste, me.age, t.gender, age);
    const candidateFit = tasteFit(t.taste, age, me.gender, me.age);
    const interests = round(interestsPart(shared));
    const reciprocal = round(reciprocalPart(oneSidedFit(shared, me.mass, viewerFit), oneSidedFit(shared, mass, candidateFit)));
    const recency = round(recencyPart(t.lastActiveMs, this.nowMs));
    this.feed = Math.round(round(interests + reciprocal + recency + (likedYou ? LIKED_YOU_BONUS : 0)) * SCORE_SCALE);
    if (!spreading) return;
    const back = round(reciprocalPart(oneSidedFit(shared, mass, candidateFit), oneSidedFit(shared, me.mass || mass, viewerFit)));
    this.spread = Math.round(round(interests + back + this.viewerRecency) * SCORE_SCALE);
  }

  /** ageOfBirth (swipe-taste.ts) against the scorer's date. */
  private ageOf(birth: number): number {
    return this.year - Math.floor(birth / 10_000) - (this.monthDay < birth % 10_000 ? 1 : 0);
  }
}
