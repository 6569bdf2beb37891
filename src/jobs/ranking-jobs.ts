import type { Cluster, Redis } from 'ioredis';

/** A client of either topology (store/redis.ts `RedisClient`; the jobs layer does not import the store's connections). */
type RedisClient = Redis | Cluster;
import type { Logger } from '../logger.js';
import type { FeedRanker } from '../services/feed-ranker.js';
import { RankingQueue } from './ranking-queue.js';
import { RankingWorker, type RankingWorkerOptions } from './ranking-worker.js';

export type RankingJobsOptions = {
  /** Opens the queue's connection and the worker's (store/redis.ts `queueConnections`). */
  connections: { queue: () => RedisClient; blocking: () => RedisClient };
  ranker: FeedRanker;
  logger: Logger;
  /** Run a worker in this process (false: only queue jobs for workers elsewhere). */
  worker: boolean | RankingWorkerOptions;
};

/** The ranking queue and, when asked, a worker, with the Redis connections they own. */
export class RankingJobs {
  private worker?: RankingWorker;
  private readonly connections: RedisClient[] = [];

  private constructor(readonly queue: RankingQueue) {}

  static async start({ connections, ranker, logger, worker }: RankingJobsOptions): Promise<RankingJobs> {
    const queueConnection = connections.queue();
    queueConnection.on('error', (error: Error) => logger.debug({ err: error.message }, 'ranking queue connection error'));
    await queueConnection.connect();
    const jobs = new RankingJobs(new RankingQueue(queueConnection));
    jobs.connections.push(queueConnection);
    if (worker) {
      const workerConnection = connections.blocking();
      workerConnection.on('error', (error: Error) => logger.debug({ err: error.message }, 'ranking worker connection error'));
      jobs.connections.push(workerConnection);
      jobs.worker = await new RankingWorker(workerConnection, ranker, jobs.queue, logger, worker === true ? {} : worker).start();
    }
    return jobs;
  }

  /** Graceful: the worker finishes the jobs in hand, then every connection closes. */
  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.queue.close();
    await Promise.allSettled(this.connections.map((connection) => connection.quit()));
    this.disconnect();
  }

  /** Cuts every connection at once (when a graceful stop takes too long). */
  disconnect() {
    this.worker?.disconnect();
    for (const connection of this.connections) connection.disconnect();
  }
}
