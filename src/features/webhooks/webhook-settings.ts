import type { Config } from '../../config.js';
import type { RetryPolicy } from './webhook-deliverer.js';
import type { DestinationPolicy } from './webhook-destinations.js';
import { WebhookSender } from './webhook-sender.js';
import type { WebhookWorkerOptions } from './webhook-worker.js';

/** The webhook settings of the configuration, in the shapes the server and the worker process both hand on. */
export const webhookRetry = (config: Config): RetryPolicy => ({ baseMs: config.WEBHOOK_RETRY_BASE_MS, maxAttempts: config.WEBHOOK_MAX_ATTEMPTS });
export const webhookDestinations = (config: Config): DestinationPolicy => ({
  allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  allowedPorts: config.WEBHOOK_ALLOWED_PORTS,
});
export const webhookSender = (config: Config) =>
  new WebhookSender({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, maxResponseBytes: 64 * 1024, destinations: webhookDestinations(config) });
export const webhookWorkerOptions = (config: Config): WebhookWorkerOptions => ({
  concurrency: config.WEBHOOK_CONCURRENCY,
  lockDurationMs: config.WEBHOOK_LOCK_MS,
  stalledIntervalMs: Math.ceil(config.WEBHOOK_LOCK_MS / 2),
});
