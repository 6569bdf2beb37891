import { describe, expect, it } from 'vitest';
import { gini, quantile, runMatching } from '../../bench/matching/simulate.js';
import { buildPopulation, loadConcepts } from '../../bench/matching/population.js';

const options = { agents: 300, seed: 7, rounds: 4, feedSize: 10 };
const withoutTimes = (report: ReturnType<typeof runMatching>) => ({ ...report, rankings: report.rankings.map(({ seconds: _, ...rest }) => rest) });

describe('the matching bench', () => {
  it('reports every ranking with shares and a Gini within [0, 1]', () => {
    const report = runMatching(options);
    expect(report.agents).toBe(300);
    expect(report.rankings.map((r) => r.ranking)).toContain('baseline');
    for (const r of report.rankings) {
      expect(r.shown).toBe(300 * 4 * 10);
      for (const share of [r.topMutualShare, r.agentsWithMatchShare, r.likesReceivedGini]) {
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(1);
      }
      expect(r.matches).toBeGreaterThan(0);
      expect(r.likes).toBeGreaterThanOrEqual(2 * r.matches);
      expect(r.swipesToFirstMatch.median).not.toBeNull();
      expect(r.swipesToFirstMatch.median!).toBeLessThanOrEqual(r.swipesToFirstMatch.p90!);
      expect(r.swipesToFirstMatch.p90!).toBeLessThanOrEqual(4 * 10);
    }
  });

  it('gives the same figures twice for a fixed seed, and other figures for another seed', () => {
    const first = withoutTimes(runMatching(options));
    expect(withoutTimes(runMatching(options))).toEqual(first);
    expect(withoutTimes(runMatching({ ...options, seed: 8 }))).not.toEqual(first);
  });

  it('measures the reciprocal ranking beside the baseline, and it shows more pairs that like each other', () => {
    const report = runMatching({ ...options, agents: 600 });
    const [baseline, reciprocal] = ['baseline', 'reciprocal'].map((name) => report.rankings.find((r) => r.ranking === name)!);
    expect(reciprocal!.topMutualShare).toBeGreaterThan(1.5 * baseline!.topMutualShare);
    expect(reciprocal!.agentsWithMatchShare).toBeGreaterThan(baseline!.agentsWithMatchShare);
  });

  it('writes hidden concepts in varied surface forms', () => {
    const concepts = loadConcepts();
    expect(concepts.length).toBeGreaterThanOrEqual(60);
    expect(concepts.every((forms) => forms.length >= 2)).toBe(true);
    const agents = buildPopulation(300, 7, concepts);
    const forms = new Set(agents.flatMap((a) => a.interests));
    expect(forms.size).toBeGreaterThan(new Set(agents.flatMap((a) => [...a.concepts])).size);
  });

  it('measures concentration and quantiles as defined', () => {
    expect(gini([5, 5, 5, 5])).toBe(0);
    expect(gini([0, 0, 0, 0])).toBe(0);
    expect(gini([0, 0, 0, 12])).toBeCloseTo(0.75);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5)).toBe(5);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(quantile([], 0.5)).toBeNull();
  });
});
