import type { Job } from 'bullmq';
import type { Logger } from '../../platform/logger.js';
import type { FeedRanker } from './feed-ranker.js';
import { POOLS } from '../../platform/core/pool.js';
import { isStoreFullError } from '../../platform/redis/redis-errors.js';
import { QueueWorker } from '../../platform/queues/queue-worker.js';
import { QUEUE_PREFIX, RANKING_QUEUE, type RankingJob, type RankingQueue } from './ranking-queue.js';
import type { QueueConnection } from '../../platform/redis/owned-connections.js';

export type RankingWorkerOptions = {
  concurrency?: number;
  /** How long a job stays locked to this worker; a job of a worker that died is retried after it lapses. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** On start, queue a ranking for every account whose feed was never ranked (default true). */
  reconcile?: boolean;
};

/**
 * A BullMQ worker running ranking jobs. Any number of them (in-process or `npm run worker`) share the
 * queue. Stopping waits for the jobs in hand to finish; a worker killed mid-job leaves its jobs locked
 * until the lock lapses, then another worker takes them again (ranking is idempotent).
 */
export class RankingWorker {
  constructor(
    private readonly connection: QueueConnection,
    private readonly ranker: FeedRanker,
    private readonly queue: RankingQueue,
    private readonly logger: Logger,
    private readonly options: RankingWorkerOptions = {},
  ) {}

  /** Queues the rankings of feeds never ranked (unless `reconcile` is false), then starts the worker. */
  async start(): Promise<QueueWorker<RankingJob>> {
    const { concurrency = 4, lockDurationMs = 10_000, stalledIntervalMs = 5_000, reconcile = true } = this.options;
    if (reconcile)
      await this.queueUnranked().catch((error: unknown) => {
        // A full Redis must not keep a worker from starting; those feeds are ranked when first read.
        if (!isStoreFullError(error)) throw error;
        this.logger.warn('Redis is full: could not queue rankings for feeds never ranked');
      });
    return new QueueWorker<RankingJob>({
      queue: RANKING_QUEUE,
      prefix: QUEUE_PREFIX,
      connection: this.connection,
      logger: this.logger,
      what: 'ranking',
      paused: 'feed ranking',
      process: (job) => this.process(job),
      settings: { concurrency, lockDuration: lockDurationMs, stalledInterval: stalledIntervalMs, maxStalledCount: 3 },
      failed: (job, error) => this.logger.warn({ err: error.message, job: job?.data, attempt: job?.attemptsMade }, 'ranking job failed'),
    }).ready();
  }

  private async process(job: Job<RankingJob>) {
    const { pool, userId } = job.data;
    const outcome = await this.ranker.refresh(pool, userId);
    this.logger.debug({ pool, userId, ...outcome }, 'ranked feed');
    return outcome ?? null;
  }

  private async queueUnranked() {
    for (const pool of POOLS) {
      const ids = await this.ranker.unranked(pool);
      if (ids.length === 0) continue;
      this.logger.info({ pool, accounts: ids.length }, 'queueing ranking for feeds never ranked');
      await this.queue.scheduleMany(pool, ids);
    }
  }
}
