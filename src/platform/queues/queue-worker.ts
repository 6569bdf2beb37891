import { Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Logger } from '../logger.js';
import type { QueueConnection } from '../redis/owned-connections.js';
import { PauseWhileFull } from './pause-while-full.js';

export type QueueWorkerOptions<T> = {
  /** The queue's name and BullMQ key prefix. */
  queue: string;
  prefix: string;
  connection: QueueConnection;
  logger: Logger;
  /** Its errors are logged as `<what> worker error`; `paused` names what a full Redis stops (PauseWhileFull). */
  what: string;
  paused: string;
  process: (job: Job<T>) => Promise<unknown>;
  /** BullMQ's settings of the worker: concurrency, locks, stalled jobs, back-off. */
  settings: Omit<WorkerOptions, 'connection' | 'prefix'>;
  /** Called with each failed attempt (to log it). */
  failed: (job: Job<T> | undefined, error: Error) => void;
};

/** A BullMQ worker of one queue, paused while Redis is full, each failed attempt handed to `failed`. */
export class QueueWorker<T> {
  private readonly worker: Worker<T>;
  private readonly whileFull: PauseWhileFull;

  constructor({ queue, prefix, connection, logger, what, paused, process, settings, failed }: QueueWorkerOptions<T>) {
    this.worker = new Worker<T>(queue, process, { ...settings, connection, prefix });
    this.whileFull = new PauseWhileFull(this.worker, logger, what, paused);
    this.worker.on('failed', failed);
  }

  /** Resolves once the worker takes jobs. */
  async ready(): Promise<this> {
    await this.worker.waitUntilReady();
    return this;
  }

  /** Graceful: takes no new job, waits for the running ones. */
  async stop(): Promise<void> {
    this.whileFull.stop();
    await this.worker.close();
  }

  /** Cuts the worker's connections at once (when a graceful stop takes too long). */
  disconnect() {
    this.worker.disconnect().catch(() => {});
  }
}
