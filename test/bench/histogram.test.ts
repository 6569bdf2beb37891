import { describe, expect, it } from 'vitest';
import { Histogram, summarize } from '../../bench/lib/histogram.js';

describe('bench histogram', () => {
  it('gives nearest-rank percentiles within 1% of the exact value', () => {
    const histogram = new Histogram();
    for (let i = 1; i <= 1000; i++) histogram.record(i / 10); // 0.1 … 100 ms
    expect(histogram.count).toBe(1000);
    for (const [p, exact] of [
      [50, 50],
      [95, 95],
      [99, 99],
      [99.9, 99.9],
    ] as const) {
      const value = histogram.percentile(p);
      expect(Math.abs(value - exact) / exact).toBeLessThanOrEqual(0.01);
    }
    expect(histogram.percentile(100)).toBe(100);
    expect(histogram.percentile(0)).toBeCloseTo(0.1, 2);
  });

  it('keeps min, max and mean exact and clamps percentiles to them', () => {
    const histogram = new Histogram();
    for (const v of [3, 3, 3, 3]) histogram.record(v);
    expect(histogram.percentile(50)).toBe(3);
    expect(histogram.percentile(99)).toBe(3);
    expect(histogram.mean).toBe(3);
    expect(summarize(histogram)).toMatchObject({ count: 4, p50: 3, p99: 3, max: 3 });
  });

  it('answers 0 when empty', () => {
    expect(summarize(new Histogram())).toMatchObject({ count: 0, mean: 0, p50: 0, p99: 0, max: 0 });
  });

  it('merges snapshots (as other processes send them) into the same percentiles', () => {
    const whole = new Histogram();
    const parts = [new Histogram(), new Histogram()];
    for (let i = 0; i < 5000; i++) {
      const v = ((i * 7919) % 997) / 13 + 0.01;
      whole.record(v);
      parts[i % 2]!.record(v);
    }
    const merged = Histogram.from(JSON.parse(JSON.stringify(parts[0]!.snapshot())));
    merged.merge(parts[1]!);
    for (const p of [50, 90, 99]) expect(merged.percentile(p)).toBe(whole.percentile(p));
    expect(merged.count).toBe(whole.count);
    expect(merged.max).toBe(whole.max);
  });

  it('lists buckets in ascending order summing to the count', () => {
    const histogram = new Histogram();
    for (const v of [5, 0.5, 50, 0.5]) histogram.record(v);
    const buckets = histogram.buckets();
    expect(buckets.map(([upper]) => upper)).toEqual([...buckets.map(([upper]) => upper)].sort((a, b) => a - b));
    expect(buckets.reduce((n, [, c]) => n + c, 0)).toBe(4);
  });
});
