import type { Pool } from '../../platform/core/pool.js';
import type { ScoreInputs } from './discovery-scoring.js';
import { ageOfBirth, tasteFit } from './swipe-taste.js';
import type { RankTraitsRepository, Traits } from './rank-traits-repository.js';
import type { Candidates } from './feed-candidates-repository.js';
import { PairScorer, type Side } from './pair-scores.js';

export type { Side };

/** The account's side from its traits; `mass`, `gender` and `birth` given when known better (its own ranking). */
export type KnownSide = { mass: number; gender?: number; birth?: number };

export function sideOf(traits: Traits | undefined, now: Date, known?: KnownSide): Side {
  const t = traits ?? { taste: { seen: [0, 0, 0, 0], liked: [0, 0, 0, 0], ages: [0, 0, 0] } };
  const birth = known?.birth ?? t.birth;
  return {
    mass: known?.mass ?? t.mass ?? 0,
    gender: known?.gender ?? t.gender,
    age: birth === undefined ? undefined : ageOfBirth(birth, now),
    traits: t,
  };
}

/** The score's inputs for `candidate` in `viewer`'s feed (a candidate never ranked counts with the viewer's mass). */
export function pairInputs(viewer: Side, candidate: Side, shared: number, likedYou: boolean, nowMs: number): ScoreInputs {
  return {
    shared,
    viewerMass: viewer.mass,
    candidateMass: candidate.mass || viewer.mass,
    viewerFit: tasteFit(viewer.traits.taste, viewer.age, candidate.gender, candidate.age),
    candidateFit: tasteFit(candidate.traits.taste, candidate.age, viewer.gender, viewer.age),
    likedYou,
    ...(candidate.traits.lastActiveMs !== undefined ? { lastActiveMs: candidate.traits.lastActiveMs } : {}),
    nowMs,
  };
}

/**
 * Candidates' scores in the viewer's feed (with the liked-you lift of the viewer's `likers`, for the
 * order), and the viewer's score in each candidate's feed (without it: lua/spread_into_feeds-4+.lua adds it
 * from the candidate's likers as they are when it writes).
 */
export type ReciprocalScores = { feed: Candidates; spread: Candidates; likers: ReadonlySet<string> };

/**
 * Turns a ranking's shared-interest sums into reciprocal scores (discovery-scoring.ts): the viewer's newest
 * likers join the candidates, whose traits are read (one HMGET per partition and step: `traitsFor`, which a
 * ranking sends alongside its last look-ups), then each pair is scored (pair-scores.ts).
 */
export class ReciprocalScorer {
  constructor(private readonly traits: RankTraitsRepository) {}

  /** The stored traits of the viewer, `members` and the viewer's `likers`. */
  traitsFor(pool: Pool, id: number, members: Iterable<string>, likers: readonly string[], step: number): Promise<Map<string, Traits>> {
    const ids = new Set(members);
    for (const liker of likers) ids.add(liker);
    ids.add(String(id));
    return this.traits.read(pool, [...ids], step);
  }

  /**
   * `likersOf`: the viewer's newest likers when the caller read them already (alongside the candidates);
   * `known`: the traits of the viewer, the candidates and the likers when the caller read them already;
   * `spreading`: false when the viewer will not be spread into other feeds (its `spread` is then left empty).
   */
  async score(
    pool: Pool,
    id: number,
    viewer: KnownSide,
    shared: Candidates,
    step: number,
    likersOf?: readonly string[],
    spreading = true,
    known?: ReadonlyMap<string, Traits>,
  ): Promise<ReciprocalScores> {
    const self = String(id);
    const likers = new Set(likersOf ?? (await this.traits.likers(pool, id)));
    const sums = new Map(shared);
    for (const liker of likers) if (liker !== self && !sums.has(liker)) sums.set(liker, 0);
    const traits = known ?? (await this.traitsFor(pool, id, sums.keys(), [], step));
    const now = new Date();
    const pair = new PairScorer(sideOf(traits.get(self), now, viewer), now.getTime());
    const feed: Candidates = new Map();
    const spread: Candidates = new Map();
    for (const [member, sum] of sums) {
      pair.score(traits.get(member), sum, likers.has(member), spreading);
      feed.set(member, pair.feed);
      if (spreading) spread.set(member, pair.spread);
    }
    return { feed, spread, likers };
  }
}
