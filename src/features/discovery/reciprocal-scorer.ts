import type { RedisClient } from '../../platform/redis/redis.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import { rankScore, type ScoreInputs } from './discovery-scoring.js';
import { ageOfBirth, tasteFit } from './swipe-taste.js';
import type { RankTraits, Traits } from './rank-traits-repository.js';
import { inSteps, type Candidates } from './feed-candidates-repository.js';

/** One side of a pair as the score sees it. */
export type Side = { mass: number; gender?: number; age?: number; traits: Traits };

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

/** Candidates' scores in the viewer's feed, and the viewer's score in each candidate's feed. */
export type ReciprocalScores = { feed: Candidates; spread: Candidates };

/**
 * Turns a ranking's shared-interest sums into reciprocal scores (discovery-scoring.ts): the viewer's newest
 * likers join the candidates, then every candidate's traits (one HMGET per partition and step) and the
 * viewer's own swipes on them (one slot, a step at a time: whom it liked lifts it in their feeds) are read.
 */
export class ReciprocalScorer {
  constructor(private readonly redis: RedisClient, private readonly traits: RankTraits) {}

  async score(pool: Pool, id: number, viewer: KnownSide, shared: Candidates, step: number): Promise<ReciprocalScores> {
    const self = String(id);
    const likers = new Set(await this.traits.likers(pool, id));
    const sums = new Map(shared);
    for (const liker of likers) if (liker !== self && !sums.has(liker)) sums.set(liker, 0);
    const ids = [...sums.keys()];
    const [traits, liked] = await Promise.all([this.traits.read(pool, [...ids, self], step), this.likedByViewer(pool, id, ids, step)]);
    const now = new Date();
    const nowMs = now.getTime();
    const me = sideOf(traits.get(self), now, viewer);
    const feed: Candidates = new Map();
    const spread: Candidates = new Map();
    for (const [member, sum] of sums) {
      const other = sideOf(traits.get(member), now);
      if (!other.mass) other.mass = me.mass;
      feed.set(member, rankScore(pairInputs(me, other, sum, likers.has(member), nowMs)));
      spread.set(member, rankScore(pairInputs(other, me, sum, liked.has(member), nowMs)));
    }
    return { feed, spread };
  }

  /** Which of `ids` the viewer liked or super liked. */
  private async likedByViewer(pool: Pool, id: number, ids: readonly string[], step: number): Promise<Set<string>> {
    const out = new Set<string>();
    await inSteps(ids, step, async (chunk) => {
      const kinds = await this.redis.hmget(keys.swipes(pool, id), ...chunk);
      chunk.forEach((member, i) => {
        if (kinds[i] === 'like' || kinds[i] === 'super_like') out.add(member);
      });
    });
    return out;
  }
}
