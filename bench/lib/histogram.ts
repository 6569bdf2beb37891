/**
 * A latency histogram with logarithmic buckets (1% wide), so memory stays constant however long a run is
 * and any percentile is known to within 1%. Values are milliseconds; min, max and mean are exact.
 */
const GROWTH = 1.01;
const LOG_GROWTH = Math.log(GROWTH);
/** Values at or below this (1 µs) share bucket 0. */
const FLOOR_MS = 0.001;

export type HistogramSnapshot = { counts: Record<number, number>; count: number; sum: number; min: number; max: number };

export class Histogram {
  private readonly counts = new Map<number, number>();
  count = 0;
  sum = 0;
  min = Infinity;
  max = 0;

  record(ms: number) {
    const value = ms > FLOOR_MS ? ms : FLOOR_MS;
    const index = Math.ceil(Math.log(value / FLOOR_MS) / LOG_GROWTH);
    this.counts.set(index, (this.counts.get(index) ?? 0) + 1);
    this.count++;
    this.sum += ms;
    if (ms < this.min) this.min = ms;
    if (ms > this.max) this.max = ms;
  }

  merge(other: Histogram | HistogramSnapshot) {
    const entries = other instanceof Histogram ? other.counts.entries() : Object.entries(other.counts).map(([k, v]) => [Number(k), v] as const);
    for (const [index, n] of entries) this.counts.set(index, (this.counts.get(index) ?? 0) + n);
    this.count += other.count;
    this.sum += other.sum;
    if (other.count > 0) {
      this.min = Math.min(this.min, other.min);
      this.max = Math.max(this.max, other.max);
    }
  }

  get mean(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  /**
   * The smallest recorded bucket bound at or under which `p` percent of the values lie (nearest-rank),
   * clamped to the exact min and max.
   */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (const index of this.sortedIndexes()) {
      seen += this.counts.get(index)!;
      if (seen >= rank) return Math.min(this.max, Math.max(this.min, upperBound(index)));
    }
    return this.max;
  }

  /** Buckets as [upper bound ms, count], ascending; for charts. */
  buckets(): Array<[number, number]> {
    return this.sortedIndexes().map((index) => [upperBound(index), this.counts.get(index)!]);
  }

  snapshot(): HistogramSnapshot {
    return { counts: Object.fromEntries(this.counts), count: this.count, sum: this.sum, min: this.min, max: this.max };
  }

  static from(snapshot: HistogramSnapshot): Histogram {
    const histogram = new Histogram();
    histogram.merge(snapshot);
    return histogram;
  }

  private sortedIndexes(): number[] {
    return [...this.counts.keys()].sort((a, b) => a - b);
  }
}

const upperBound = (index: number) => FLOOR_MS * GROWTH ** index;

export type LatencySummary = { count: number; mean: number; p50: number; p95: number; p99: number; p999: number; max: number };

export function summarize(histogram: Histogram): LatencySummary {
  return {
    count: histogram.count,
    mean: histogram.mean,
    p50: histogram.percentile(50),
    p95: histogram.percentile(95),
    p99: histogram.percentile(99),
    p999: histogram.percentile(99.9),
    max: histogram.count === 0 ? 0 : histogram.max,
  };
}
