import type { Worker } from 'bullmq';
import type { Logger } from '../logger.js';
import { isStoreFullError } from '../redis/redis-errors.js';

const FULL_RETRY_MS = 1_000;

/**
 * BullMQ fetches the next job again at once when Redis refuses the fetch, so a full Redis would keep a
 * worker spinning: this pauses it instead, and tries again every FULL_RETRY_MS until there is room. Other
 * worker errors are logged as `<what> worker error`; `paused` names what stops (e.g. "feed ranking").
 */
export class PauseWhileFull {
  private retry?: NodeJS.Timeout;
  private announced = false;

  constructor(
    private readonly worker: Worker,
    private readonly logger: Logger,
    private readonly what: string,
    private readonly paused: string,
  ) {
    worker.on('error', (error) => {
      if (isStoreFullError(error)) this.pause();
      else this.logger.warn({ err: error.message }, `${this.what} worker error`);
    });
    worker.on('completed', () => {
      this.announced = false;
    });
  }

  /** No retry is left pending (before the worker closes). */
  stop() {
    clearTimeout(this.retry);
    this.retry = undefined;
  }

  private pause() {
    const worker = this.worker;
    if (this.retry || worker.closing) return;
    if (!this.announced) this.logger.warn(`Redis is full: ${this.paused} paused, retrying every ${FULL_RETRY_MS} ms`);
    this.announced = true;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void worker.resume();
    }, FULL_RETRY_MS);
    void worker.pause(true);
  }
}
