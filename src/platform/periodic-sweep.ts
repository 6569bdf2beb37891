/**
 * A sweep every process runs on a timer, finishing what a process that crashed (or lost Redis) left
 * half-done. Sweeps never overlap; stop() waits for the one under way.
 */
export abstract class PeriodicSweep {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(protected readonly everyMs: number) {}

  start(): this {
    this.timer = setInterval(() => {
      this.running ??= this.sweepOnce().finally(() => (this.running = undefined));
    }, this.everyMs);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One sweep; it reports its own errors (the next sweep retries). */
  protected abstract sweepOnce(): Promise<void>;
}
