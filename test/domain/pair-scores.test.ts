import { describe, expect, it } from 'vitest';
import { rankScore } from '../../src/features/discovery/discovery-scoring.js';
import { PairScorer } from '../../src/features/discovery/pair-scores.js';
import { pairInputs, sideOf } from '../../src/features/discovery/reciprocal-scorer.js';
import type { Traits } from '../../src/features/discovery/rank-traits-repository.js';
import { emptyTaste, noteSwipe } from '../../src/features/discovery/swipe-taste.js';

/** A small deterministic generator, so a failure names the case that failed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOW = Date.UTC(2026, 10, 27, 4, 30);
const DAY = 86_400_000;

/** Traits as stored: some absent, some without a profile, a taste or an activity, the rest anything. */
function someTraits(random: () => number): Traits | undefined {
  if (random() < 0.15) return undefined;
  const taste = emptyTaste();
  const swipes = random() < 0.3 ? 0 : Math.floor(random() * 40);
  for (let i = 0; i < swipes; i++) noteSwipe(taste, Math.floor(random() * 4), 18 + Math.floor(random() * 50), random() < 0.4);
  const traits: Traits = { taste };
  if (random() < 0.8) {
    const year = 1950 + Math.floor(random() * 58);
    Object.assign(traits, {
      mass: random() < 0.1 ? 0 : Math.floor(random() * 30_000),
      gender: Math.floor(random() * 4),
      birth: year * 10_000 + (1 + Math.floor(random() * 12)) * 100 + 1 + Math.floor(random() * 28),
    });
  }
  if (random() < 0.7) traits.lastActiveMs = NOW - Math.floor(random() * 20 * DAY);
  return traits;
}

describe('a ranking scored one viewer against many candidates', () => {
  it('gives every candidate, both ways round, the very integers the score of each pair gives', () => {
    const random = generator(20261127);
    let compared = 0;
    for (let viewers = 0; viewers < 200; viewers++) {
      const mine = someTraits(random);
      const known = {
        mass: random() < 0.05 ? 0 : Math.floor(random() * 30_000),
        gender: Math.floor(random() * 4),
        birth: 19_800_101 + Math.floor(random() * 25) * 10_000 + Math.floor(random() * 12) * 100,
      };
      const me = sideOf(mine, new Date(NOW), known);
      const scorer = new PairScorer(me, NOW);
      for (let c = 0; c < 50; c++) {
        const theirs = someTraits(random);
        // (mostly at most the viewer's mass, as in a ranking; sometimes beyond it, where the masses' defaults tell)
        const shared = random() < 0.2 ? 0 : Math.floor(random() * (random() < 0.1 ? 30_000 : Math.max(1, me.mass)));
        const likedYou = random() < 0.2;
        const other = sideOf(theirs, new Date(NOW));
        if (!other.mass) other.mass = me.mass;
        scorer.score(theirs, shared, likedYou, true);
        expect([scorer.feed, scorer.spread], `viewer ${viewers}, candidate ${c}`).toEqual([
          rankScore(pairInputs(me, other, shared, likedYou, NOW)),
          rankScore(pairInputs(other, me, shared, false, NOW)),
        ]);
        compared++;
      }
    }
    expect(compared).toBe(10_000);
  });

  it('leaves the score in the candidate’s feed alone when the viewer is not spread', () => {
    const scorer = new PairScorer(sideOf(undefined, new Date(NOW), { mass: 5000, gender: 1, birth: 19_900_101 }), NOW);
    scorer.score({ taste: emptyTaste(), mass: 4000, gender: 0, birth: 19_920_202 }, 2000, false, true);
    const spread = scorer.spread;
    scorer.score({ taste: emptyTaste(), mass: 9000, gender: 2, birth: 19_700_303 }, 100, true, false);
    expect(scorer.spread).toBe(spread);
    expect(scorer.feed).toBeGreaterThan(1000);
  });
});
