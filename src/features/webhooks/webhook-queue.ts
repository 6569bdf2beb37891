import { Queue } from 'bullmq';
import type { QueueConnection } from '../../platform/redis/owned-connections.js';
import type { DeliveryJob, DeliveryScheduler } from './webhook-scheduling.js';

export const WEBHOOK_QUEUE = 'webhook-deliveries';
/** The queue's own hash tag: all its keys in one Redis Cluster slot, apart from the ranking queue's. */
export const WEBHOOK_QUEUE_PREFIX = '{am-hooks}';
/** The custom back-off (see WebhookWorker): the delay the delivery chose, exponential with jitter. */
export const WEBHOOK_BACKOFF = 'webhook';

/**
 * Webhook delivery jobs. A chain job's id is `<webhook id>.<event id>`: queueing it again while it waits,
 * runs or waits for a retry is a no-op, so a outbox step run twice (or a kick racing a job) never
 * duplicates a delivery. Finished jobs are removed (the webhook's own log keeps the attempts).
 */
export class WebhookQueue implements DeliveryScheduler {
  readonly queue: Queue<DeliveryJob>;

  constructor(
    connection: QueueConnection,
    private readonly maxAttempts: number,
  ) {
    this.queue = new Queue<DeliveryJob>(WEBHOOK_QUEUE, {
      connection,
      prefix: WEBHOOK_QUEUE_PREFIX,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    this.queue.on('error', () => {});
  }

  async schedule(job: DeliveryJob): Promise<void> {
    await this.queue.add('deliver', job, {
      jobId: `${job.webhookId}.${job.eventId}`,
      attempts: this.maxAttempts,
      backoff: { type: WEBHOOK_BACKOFF },
    });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
