import type { Logger } from '../../platform/logger.js';
import type { FeedRanker } from './feed-ranker.js';
import type { QueueConnections } from '../../platform/redis/owned-connections.js';
import { OwnedQueue, openQueue } from '../../platform/queues/owned-queue.js';
import { RankingQueue } from './ranking-queue.js';
import { RankingWorker, type RankingWorkerOptions } from './ranking-worker.js';

export type RankingJobsOptions = {
  /** Opens the queue's connection and the worker's (platform/redis/redis.ts `queueConnections`). */
  connections: QueueConnections;
  ranker: FeedRanker;
  logger: Logger;
  /** Run a worker in this process (false: only queue jobs for workers elsewhere). */
  worker: boolean | RankingWorkerOptions;
};

/** The ranking queue and, when asked, a worker, with the Redis connections they own. */
export class RankingJobs extends OwnedQueue<RankingQueue> {
  static async start({ connections, ranker, logger, worker }: RankingJobsOptions): Promise<RankingJobs> {
    const jobs = new RankingJobs(await openQueue('ranking', connections, logger, (connection) => new RankingQueue(connection)));
    if (worker) await jobs.runWorker((connection) => new RankingWorker(connection, ranker, jobs.queue, logger, worker === true ? {} : worker).start());
    return jobs;
  }
}
