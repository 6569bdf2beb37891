import { Histogram, summarize, type HistogramSnapshot, type LatencySummary } from './histogram.js';

/** What one operation (a route, a push, a step) did during a measured phase. */
export type OperationStats = {
  count: number;
  /** Completions per second over the measured window. */
  throughput: number;
  latency: LatencySummary;
  /** Outcome counts: HTTP status codes or `ok`, or `net:<code>` / `timeout` / `missing` for what never completed. */
  outcomes: Record<string, number>;
  /** Completions in each second of the window. */
  timeline: number[];
  /** Latency buckets [upper bound ms, count], for the distribution chart. */
  buckets: Array<[number, number]>;
};

class Operation {
  readonly latency = new Histogram();
  readonly outcomes: Record<string, number> = {};
  readonly timeline: number[] = [];
}

/** Records completions by operation tag from a start instant on; everything in milliseconds. */
export class Recorder {
  private readonly operations = new Map<string, Operation>();
  private startedAt = performance.now();
  private stoppedAt?: number;

  /** Restarts the clock (the end of a warm-up); what was recorded before is dropped. */
  reset() {
    this.operations.clear();
    this.startedAt = performance.now();
  }

  stop() {
    this.stoppedAt ??= performance.now();
  }

  get elapsedMs(): number {
    return (this.stoppedAt ?? performance.now()) - this.startedAt;
  }

  record(tag: string, outcome: string | number, latencyMs: number, at = performance.now()) {
    const op = this.operation(tag);
    op.latency.record(latencyMs);
    op.outcomes[outcome] = (op.outcomes[outcome] ?? 0) + 1;
    const second = Math.max(0, Math.floor((at - this.startedAt) / 1000));
    while (op.timeline.length <= second) op.timeline.push(0);
    op.timeline[second]!++;
  }

  /** Adds latencies measured elsewhere (another process), all with one outcome. */
  merge(tag: string, snapshot: HistogramSnapshot, outcome = 'ok') {
    const op = this.operation(tag);
    op.latency.merge(snapshot);
    if (snapshot.count > 0) op.outcomes[outcome] = (op.outcomes[outcome] ?? 0) + snapshot.count;
  }

  /** A request that got no answer: counted as an outcome, not as a latency. */
  fail(tag: string, outcome: string) {
    const op = this.operation(tag);
    op.outcomes[outcome] = (op.outcomes[outcome] ?? 0) + 1;
  }

  get tags(): string[] {
    return [...this.operations.keys()];
  }

  total(): number {
    let n = 0;
    for (const op of this.operations.values()) n += op.latency.count;
    return n;
  }

  failures(): number {
    let n = 0;
    for (const op of this.operations.values()) {
      for (const [outcome, count] of Object.entries(op.outcomes)) if (!isSuccess(outcome)) n += count;
    }
    return n;
  }

  histogram(tag: string): Histogram {
    return this.read(tag).latency;
  }

  stats(tag: string): OperationStats {
    const op = this.read(tag);
    const seconds = Math.max(this.elapsedMs / 1000, 1e-9);
    // Whole seconds only: a last, partial second would read as a drop in throughput.
    const timeline = op.timeline.slice(0, Math.max(1, Math.floor(seconds)));
    return {
      count: op.latency.count,
      throughput: op.latency.count / seconds,
      latency: summarize(op.latency),
      outcomes: { ...op.outcomes },
      timeline,
      buckets: op.latency.buckets(),
    };
  }

  all(): Record<string, OperationStats> {
    return Object.fromEntries(this.tags.map((tag) => [tag, this.stats(tag)]));
  }

  /** The operation's record, or an empty one (not kept) when nothing was recorded under `tag`. */
  private read(tag: string): Operation {
    return this.operations.get(tag) ?? new Operation();
  }

  private operation(tag: string): Operation {
    let op = this.operations.get(tag);
    if (!op) {
      op = new Operation();
      this.operations.set(tag, op);
    }
    return op;
  }
}

/**
 * 2xx/3xx statuses (`<400` where the generator only tells that much: wrk), and `ok` for operations that are not
 * HTTP requests (a frame that arrived, a socket that opened).
 */
export const isSuccess = (outcome: string | number) => /^([23]\d\d|<400|ok)$/.test(String(outcome));
