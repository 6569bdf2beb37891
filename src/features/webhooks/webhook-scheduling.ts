import type { Pool } from '../../platform/core/pool.js';

/**
 * One delivery job: the next event (`eventId`) of a webhook's chain. A chain has one job at a time: its id
 * is `<webhook id>.<event id>`, so adding it twice is a no-op. (Test pings are not jobs: see WebhookPings.
 * A ping job queued by an earlier version finds its event is not the chain's next and only kicks the chain.)
 */
export type DeliveryJob = { pool: Pool; userId: number; webhookId: string; eventId: string };

/** Queues delivery jobs (features/webhooks/webhook-queue.ts with BullMQ). */
export interface DeliveryScheduler {
  schedule(job: DeliveryJob): Promise<void>;
}

/** Counts deliveries by outcome (the metrics of src/platform/metrics/metrics.ts). */
export type DeliveryOutcome = 'delivered' | 'failed' | 'disabled_gone' | 'disabled_failing' | 'ping_delivered' | 'ping_failed';
export type OutcomeCounter = (outcome: DeliveryOutcome) => void;

/** One delivery's outcome: the receiver's status, or why there was none (timeout, refused, connection error). */
export type SendResult = { status?: number; error?: string; latencyMs: number };

/** Sends one signed delivery (features/webhooks/webhook-sender.ts over HTTP). */
export interface WebhookTransport {
  send(url: string, secrets: readonly string[], messageId: string, body: string): Promise<SendResult>;
}
