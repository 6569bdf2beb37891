import type { Logger } from '../../platform/logger.js';
import type { LeaveService } from './leave-service.js';

/**
 * Every process looks on a timer for erasures begun more than `everyMs` ago and not finished (the process
 * carrying one out crashed, or lost Redis, mid-way) and finishes them. Sweeps never overlap.
 */
export class ErasureSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly service: LeaveService,
    private readonly everyMs: number,
    private readonly logger: Logger,
  ) {}

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

  private async sweepOnce(): Promise<void> {
    try {
      const finished = await this.service.finishInterrupted(this.everyMs);
      if (finished > 0) this.logger.info({ finished }, 'finished erasures a crash interrupted');
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : error }, 'erasure sweep failed; retrying');
    }
  }
}
