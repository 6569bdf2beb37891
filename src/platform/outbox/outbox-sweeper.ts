import { PeriodicSweep } from '../periodic-sweep.js';
import type { Logger } from '../logger.js';
import type { OutboxRunner } from './outbox-runner.js';

/**
 * Every process sweeps the outboxes on a timer: records older than `everyMs` were left behind by a process
 * that crashed (or lost Redis) between a commit and its outbox steps, and are completed now. Sweeps never
 * overlap. A record that keeps failing goes to the dead letter after a bounded number of sweeps (see
 * OutboxRunner.sweep).
 */
export class OutboxSweeper extends PeriodicSweep {
  constructor(
    private readonly outbox: OutboxRunner,
    everyMs: number,
    private readonly logger: Logger,
  ) {
    super(everyMs);
  }

  protected async sweepOnce(): Promise<void> {
    try {
      const completed = await this.outbox.sweep(this.everyMs);
      if (completed > 0) this.logger.info({ completed }, 'completed the outbox steps of writes left pending');
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : error }, 'outbox sweep failed; retrying');
    }
  }
}
