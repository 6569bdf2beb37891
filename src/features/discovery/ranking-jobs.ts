import type { Logger } from '../../platform/logger.js';
import type { FeedRanker } from './feed-ranker.js';
import { OwnedConnections, type QueueConnections } from '../../platform/redis/owned-connections.js';
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
export class RankingJobs {
  private worker?: RankingWorker;

  private constructor(
    readonly queue: RankingQueue,
    private readonly connections: OwnedConnections,
  ) {}

  static async start({ connections, ranker, logger, worker }: RankingJobsOptions): Promise<RankingJobs> {
    const owned = new OwnedConnections(logger);
    const queueConnection = owned.add(connections.queue, 'ranking queue');
    await queueConnection.connect();
    const jobs = new RankingJobs(new RankingQueue(queueConnection), owned);
    if (worker) {
      const workerConnection = owned.add(connections.blocking, 'ranking worker');
      jobs.worker = await new RankingWorker(workerConnection, ranker, jobs.queue, logger, worker === true ? {} : worker).start();
    }
    return jobs;
  }

  /** Graceful: the worker finishes the jobs in hand, then every connection closes. */
  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.queue.close();
    await this.connections.quit();
  }

  /** Cuts every connection at once (when a graceful stop takes too long). */
  disconnect() {
    this.worker?.disconnect();
    this.connections.disconnect();
  }
}
