import { PeriodicSweep } from '../../platform/periodic-sweep.js';
import type { Logger } from '../../platform/logger.js';
import type { LeaveService } from './leave-service.js';

/**
 * Every process looks on a timer for erasures begun more than `everyMs` ago and not finished (the process
 * carrying one out crashed, or lost Redis, mid-way) and finishes them. Sweeps never overlap.
 */
export class ErasureSweeper extends PeriodicSweep {
  constructor(
    private readonly service: LeaveService,
    everyMs: number,
    private readonly logger: Logger,
  ) {
    super(everyMs);
  }

  protected async sweepOnce(): Promise<void> {
    try {
      const finished = await this.service.finishInterrupted(this.everyMs);
      if (finished > 0) this.logger.info({ finished }, 'finished erasures a crash interrupted');
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : error }, 'erasure sweep failed; retrying');
    }
  }
}
