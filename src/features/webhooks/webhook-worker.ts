import type { Job } from 'bullmq';
import type { Logger } from '../../platform/logger.js';
import { retryDelayMs, type RetryPolicy, type WebhookDeliverer } from './webhook-deliverer.js';
import type { DeliveryJob } from './webhook-scheduling.js';
import { QueueWorker } from '../../platform/queues/queue-worker.js';
import type { QueueConnection } from '../../platform/redis/owned-connections.js';
import { WEBHOOK_QUEUE, WEBHOOK_QUEUE_PREFIX } from './webhook-queue.js';

export type WebhookWorkerOptions = {
  concurrency?: number;
  /** How long a job stays locked to this worker; a job of a worker that died is run again after it lapses. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
};

/** A failed attempt that asks for a retry after the delay the delivery chose. */
class RetryLater extends Error {
  constructor(
    message: string,
    readonly retryInMs: number,
  ) {
    super(message);
  }
}

/**
 * A BullMQ worker delivering webhooks. Any number of them (in the server, in `npm run worker`) share the
 * queue; a chain has one job at a time, so more workers deliver more chains at once, never one event twice
 * (beyond a job taken over from a worker that died mid-delivery: at least once).
 */
export class WebhookWorker {
  constructor(
    private readonly connection: QueueConnection,
    private readonly deliverer: WebhookDeliverer,
    private readonly retry: RetryPolicy,
    private readonly logger: Logger,
    private readonly options: WebhookWorkerOptions = {},
  ) {}

  async start(): Promise<QueueWorker<DeliveryJob>> {
    const { concurrency = 16, lockDurationMs = 30_000, stalledIntervalMs = 15_000 } = this.options;
    return new QueueWorker<DeliveryJob>({
      queue: WEBHOOK_QUEUE,
      prefix: WEBHOOK_QUEUE_PREFIX,
      connection: this.connection,
      logger: this.logger,
      what: 'webhook',
      paused: 'webhook deliveries',
      process: (job) => this.process(job),
      settings: {
        concurrency,
        lockDuration: lockDurationMs,
        stalledInterval: stalledIntervalMs,
        // A job is taken over however often its workers die: its chain must not stop.
        maxStalledCount: 1_000,
        settings: {
          backoffStrategy: (attemptsMade: number, _type?: string, error?: Error) =>
            error instanceof RetryLater ? error.retryInMs : retryDelayMs(this.retry, Math.max(1, attemptsMade)),
        },
      },
      failed: (job, error) =>
        this.logger.debug({ err: error.message, webhookId: job?.data.webhookId, attempt: job?.attemptsMade }, 'webhook delivery attempt failed'),
    }).ready();
  }

  private async process(job: Job<DeliveryJob>) {
    const attempt = job.attemptsMade + 1;
    const step = await this.deliverer.run(job.data, attempt, attempt >= (job.opts.attempts ?? 1));
    if (step.retryInMs !== undefined) throw new RetryLater(step.error ?? 'delivery failed', step.retryInMs);
    return null;
  }
}
