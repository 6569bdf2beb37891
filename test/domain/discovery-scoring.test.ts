import { describe, expect, it } from 'vitest';
import { displayScore, interestWeight, sharedScore } from '../../src/features/discovery/discovery-scoring.js';

describe('interest weights', () => {
  it('weigh a rarer interest more, and every interest above zero', () => {
    expect(interestWeight(1_000, 3)).toBeGreaterThan(interestWeight(1_000, 30));
    expect(interestWeight(1_000, 30)).toBeGreaterThan(interestWeight(1_000, 300));
    expect(interestWeight(1_000, 1_000)).toBeGreaterThan(0);
    expect(interestWeight(1_000, 1_000)).toBe(Math.round(1000 * Math.log(2)));
  });
  it('are whole numbers, and survive odd counts', () => {
    for (const [size, holders] of [
      [0, 0],
      [1, 5],
      [10, 0],
      [100_000, 7],
    ] as const) {
      const weight = interestWeight(size, holders);
      expect(Number.isInteger(weight)).toBe(true);
      expect(weight).toBeGreaterThan(0);
    }
  });
});

describe('scores', () => {
  it('sum the weights of the shared interests', () => {
    const weights: Record<string, number> = { rare: 3000, common: 700 };
    expect(sharedScore(['rare', 'common'], (i) => weights[i]!)).toBe(3700);
    expect(sharedScore([], () => 1)).toBe(0);
    expect(displayScore(3700)).toBe(3.7);
  });
  it('rank one shared rare interest above two shared common ones in a large pool', () => {
    const rare = interestWeight(100_000, 20);
    const common = interestWeight(100_000, 40_000);
    expect(rare).toBeGreaterThan(2 * common);
  });
});
