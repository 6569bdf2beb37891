import type { Cluster, Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { RetryPolicy, WebhookDeliverer } from '../services/webhook-deliverer.js';
import { WebhookQueue } from './webhook-queue.js';
import { WebhookWorker, type WebhookWorkerOptions } from './webhook-worker.js';

/** A client of either topology (store/redis.ts `RedisClient`; the jobs layer does not import the store's connections). */
type RedisClient = Redis | Cluster;

export type WebhookJobsOptions = {
  connections: { queue: () => RedisClient; blocking: () => RedisClient };
  retry: RetryPolicy;
  logger: Logger;
};

/** The webhook delivery queue and, once asked, a worker, with the Redis connections they own. */
export class WebhookJobs {
  private worker?: WebhookWorker;
  private readonly connections: RedisClient[] = [];

  private constructor(readonly queue: WebhookQueue, private readonly options: WebhookJobsOptions) {}

  static async open(options: WebhookJobsOptions): Promise<WebhookJobs> {
    const connection = options.connections.queue();
    connection.on('error', (error: Error) => options.logger.debug({ err: error.message }, 'webhook queue connection error'));
    await connection.connect();
    const jobs = new WebhookJobs(new WebhookQueue(connection, options.retry.maxAttempts), options);
    jobs.connections.push(connection);
    return jobs;
  }

  /** Starts a worker in this process, delivering with `deliverer`. */
  async startWorker(deliverer: WebhookDeliverer, options: WebhookWorkerOptions = {}): Promise<this> {
    const connection = this.options.connections.blocking();
    connection.on('error', (error: Error) => this.options.logger.debug({ err: error.message }, 'webhook worker connection error'));
    this.connections.push(connection);
    this.worker = await new WebhookWorker(connection, deliverer, this.options.retry, this.options.logger, options).start();
    return this;
  }

  /** Graceful: the worker finishes the deliveries in hand (each bounded by the delivery timeout), then every connection closes. */
  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.queue.close();
    await Promise.allSettled(this.connections.map((connection) => connection.quit()));
    this.disconnect();
  }

  disconnect() {
    this.worker?.disconnect();
    for (const connection of this.connections) connection.disconnect();
  }
}
