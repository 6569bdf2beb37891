import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';

const RESOLUTION_MS = 10;
/** Fewer samples than this in the current window (half a second's worth) and the last full window answers. */
const MIN_SAMPLES = 50;

/**
 * The p99 event-loop delay in milliseconds over a window that restarts every `windowMs`, so a spike shows
 * for a while and then ages out. Node samples with a timer every 10 ms and records the whole interval;
 * the 10 ms itself is subtracted, leaving the delay the loop added.
 */
export class EventLoopDelay {
  private readonly histogram: ELDHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private lastWindowP99 = 0;
  private timer?: NodeJS.Timeout;

  start(windowMs = 10_000): this {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.lastWindowP99 = this.currentP99();
      this.histogram.reset();
    }, windowMs);
    this.timer.unref();
    return this;
  }

  readP99Ms = (): number => (this.histogram.count >= MIN_SAMPLES ? this.currentP99() : this.lastWindowP99);

  stop() {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private currentP99(): number {
    if (this.histogram.count === 0) return 0;
    return Math.max(0, Math.round((this.histogram.percentile(99) / 1e6 - RESOLUTION_MS) * 1000) / 1000);
  }
}
