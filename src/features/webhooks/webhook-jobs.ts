import type { Logger } from '../../platform/logger.js';
import type { RetryPolicy, WebhookDeliverer } from './webhook-deliverer.js';
import type { QueueConnections } from '../../platform/redis/owned-connections.js';
import { OwnedQueue, openQueue, type OpenedQueue } from '../../platform/queues/owned-queue.js';
import { WebhookQueue } from './webhook-queue.js';
import { WebhookWorker, type WebhookWorkerOptions } from './webhook-worker.js';

export type WebhookJobsOptions = {
  connections: QueueConnections;
  retry: RetryPolicy;
  logger: Logger;
};

/**
 * The webhook delivery queue and, once asked, a worker, with the Redis connections they own. Stopping waits
 * for the deliveries in hand, each bounded by the delivery timeout.
 */
export class WebhookJobs extends OwnedQueue<WebhookQueue> {
  private constructor(
    opened: OpenedQueue<WebhookQueue>,
    private readonly options: WebhookJobsOptions,
  ) {
    super(opened);
  }

  static async open(options: WebhookJobsOptions): Promise<WebhookJobs> {
    return new WebhookJobs(
      await openQueue('webhook', options.connections, options.logger, (connection) => new WebhookQueue(connection, options.retry.maxAttempts)),
      options,
    );
  }

  /** Starts a worker in this process, delivering with `deliverer`. */
  async startWorker(deliverer: WebhookDeliverer, options: WebhookWorkerOptions = {}): Promise<this> {
    await this.runWorker((connection) => new WebhookWorker(connection, deliverer, this.options.retry, this.options.logger, options).start());
    return this;
  }
}
