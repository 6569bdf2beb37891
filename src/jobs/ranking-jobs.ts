import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { FeedRanker } from '../services/feed-ranker.js';
import { createBlockingRedis, createRedis } from '../store/redis.js';
import { RankingQueue } from './ranking-queue.js';
import { RankingWorker, type RankingWorkerOptions } from './ranking-worker.js';

export type RankingJobsOptions = {
  redisUrl: string;
  ranker: FeedRanker;
  logger: Logger;
  /** Run a worker in this process (false: only queue jobs for workers elsewhere). */
  worker: boolean | RankingWorkerOptions;
  /** The queue connection's stall timeout (see createRedis). */
  timeoutMs?: number;
};

/** The ranking queue and, when asked, a worker, with the Redis connections they own. */
export class RankingJobs {
  private worker?: RankingWorker;
  private readonly connections: Redis[] = [];

  private constructor(readonly queue: RankingQueue) {}

  static async start({ redisUrl, ranker, logger, worker, timeoutMs }: RankingJobsOptions): Promise<RankingJobs> {
    // Fails fast while Redis is away (like request-path commands) instead of queueing up.
    const queueConnection = createRedis(redisUrl, { enableAutoPipelining: false }, timeoutMs);
    queueConnection.on('error', (error: Error) => logger.debug({ err: error.message }, 'ranking queue connection error'));
    await queueConnection.connect();
    const jobs = new RankingJobs(new RankingQueue(queueConnection));
    jobs.connections.push(queueConnection);
    if (worker) {
      const workerConnection = createBlockingRedis(redisUrl);
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
