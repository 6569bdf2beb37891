import { Queue } from 'bullmq';
import type { QueueConnection } from '../../platform/redis/owned-connections.js';
import type { RankingScheduler } from './feed-ranker.js';
import type { Pool } from '../../platform/core/pool.js';

export const RANKING_QUEUE = 'discovery-ranking';
/**
 * BullMQ's key prefix (keys are `${prefix}:${queue}:…`): one hash tag, so every key of the queue lies in
 * one Redis Cluster slot, as BullMQ requires there; the tag names the product like the `am:` of every other key.
 */
export const QUEUE_PREFIX = '{am-jobs}';
export type RankingJob = { pool: Pool; userId: number };

/**
 * The ranking jobs, one per account at a time: BullMQ deduplication by account id merges a burst of
 * changes into the job already waiting, and one that arrives while the account's job runs queues exactly
 * one more (`keepLastIfActive`), so the last change is always ranked. Failed jobs retry with back-off.
 */
export class RankingQueue implements RankingScheduler {
  readonly queue: Queue<RankingJob>;

  constructor(connection: QueueConnection) {
    this.queue = new Queue<RankingJob>(RANKING_QUEUE, {
      connection,
      prefix: QUEUE_PREFIX,
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 200 },
        removeOnComplete: true,
        removeOnFail: { count: 1_000 },
      },
    });
    // Connection errors are logged by the connection's owner (RankingJobs); without a listener BullMQ
    // would print each one to stderr while Redis is away.
    this.queue.on('error', () => {});
  }

  async schedule(pool: Pool, userId: number): Promise<void> {
    await this.queue.add('rank', { pool, userId }, { deduplication: { id: `${pool}:${userId}`, keepLastIfActive: true } });
  }

  async scheduleMany(pool: Pool, userIds: readonly number[]): Promise<void> {
    for (let i = 0; i < userIds.length; i += 1_000) {
      await this.queue.addBulk(
        userIds.slice(i, i + 1_000).map((userId) => ({
          name: 'rank',
          data: { pool, userId },
          opts: { deduplication: { id: `${pool}:${userId}`, keepLastIfActive: true } },
        })),
      );
    }
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
