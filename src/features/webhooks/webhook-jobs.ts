import type { Logger } from '../../platform/logger.js';
import type { RetryPolicy, WebhookDeliverer } from './webhook-deliverer.js';
import { OwnedConnections, type QueueConnections } from '../../platform/redis/owned-connections.js';
import { WebhookQueue } from './webhook-queue.js';
import { WebhookWorker, type WebhookWorkerOptions } from './webhook-worker.js';

export type WebhookJobsOptions = {
  connections: QueueConnections;
  retry: RetryPolicy;
  logger: Logger;
};

/** The webhook delivery queue and, once asked, a worker, with the Redis connections they own. */
export class WebhookJobs {
  private worker?: WebhookWorker;

  private constructor(
    readonly queue: WebhookQueue,
    private readonly options: WebhookJobsOptions,
    private readonly connections: OwnedConnections,
  ) {}

  static async open(options: WebhookJobsOptions): Promise<WebhookJobs> {
    const owned = new OwnedConnections(options.logger);
    const connection = owned.add(options.connections.queue, 'webhook queue');
    await connection.connect();
    return new WebhookJobs(new WebhookQueue(connection, options.retry.maxAttempts), options, owned);
  }

  /** Starts a worker in this process, delivering with `deliverer`. */
  async startWorker(deliverer: WebhookDeliverer, options: WebhookWorkerOptions = {}): Promise<this> {
    const connection = this.connections.add(this.options.connections.blocking, 'webhook worker');
    this.worker = await new WebhookWorker(connection, deliverer, this.options.retry, this.options.logger, options).start();
    return this;
  }

  /** Graceful: the worker finishes the deliveries in hand (each bounded by the delivery timeout), then every connection closes. */
  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.queue.close();
    await this.connections.quit();
  }

  disconnect() {
    this.worker?.disconnect();
    this.connections.disconnect();
  }
}
