import { randomBytes } from 'node:crypto';
import { errors } from '../../platform/core/errors.js';
import type { Pool } from '../../platform/core/pool.js';
import { PING_EVENT } from './webhook-schemas.js';
import type { Logger } from '../../platform/logger.js';
import type { WebhookRecord, WebhookRepository } from './webhook-repository.js';
import { retryAfterSeconds } from '../../platform/limits/account-limits.js';
import { attemptEntry, isSuccess, secretsOf } from './webhook-attempts.js';
import type { OutcomeCounter, WebhookTransport } from './webhook-scheduling.js';

/** How much longer than the delivery timeout a ping's claim lasts: time to log the attempt and let go. */
const CLAIM_MARGIN_MS = 1_000;

/**
 * Test pings (`POST /webhooks/{id}/test`), sent by the process that took the request straight to the
 * receiver, never through the delivery queue: the queue's workers carry every account's events, and a
 * ping to a receiver that never answers would hold one of them for the whole timeout. Here it holds a
 * socket of its own, for the timeout at most, and a webhook has at most one ping in flight (a claim in
 * Redis, so across every process): another one meanwhile is refused with 429 until the first is done.
 */
export class WebhookPings {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: WebhookRepository,
    private readonly transport: WebhookTransport,
    private readonly count: OutcomeCounter,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /** Sends one `webhook.ping` to the webhook, answering at once with its id; the attempt shows in the deliveries. */
  async send(pool: Pool, userId: number, hook: WebhookRecord): Promise<{ event_id: string }> {
    const eventId = `ping_${randomBytes(8).toString('hex')}`;
    const busyForMs = await this.store.claimPing(pool, userId, hook.id, eventId, this.timeoutMs + CLAIM_MARGIN_MS);
    if (busyForMs !== undefined) {
      throw errors.rateLimited(
        retryAfterSeconds(busyForMs),
        'test pings in flight to this webhook (one at a time: the last one is still waiting for its answer)',
      );
    }
    const frame = JSON.stringify({ id: eventId, type: PING_EVENT, at: new Date().toISOString(), data: { webhook_id: hook.id } });
    const sending = this.deliver(pool, userId, hook, eventId, frame)
      .catch((error: unknown) => this.logger.warn({ err: error, webhookId: hook.id }, 'a webhook test ping failed'))
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
    return { event_id: eventId };
  }

  /** Waits for the pings in flight (each ends within the delivery timeout). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Sends the ping, lets go of the webhook's claim (so the next ping may go once this one shows in the log), logs it. */
  private async deliver(pool: Pool, userId: number, hook: WebhookRecord, eventId: string, frame: string): Promise<void> {
    const result = await this.transport.send(hook.url, secretsOf(hook), eventId, frame);
    // Should this fail, the claim lapses by itself shortly after the timeout.
    await this.store.releasePing(pool, userId, hook.id, eventId).catch(() => undefined);
    const ok = isSuccess(result);
    this.count(ok ? 'ping_delivered' : 'ping_failed');
    const entry = attemptEntry({ eventId, type: PING_EVENT, attempt: 1, result, outcome: ok ? 'delivered' : 'failed' });
    await this.store
      .logAttempt(pool, userId, hook.id, entry)
      .catch((error: unknown) => this.logger.warn({ err: error, webhookId: hook.id }, 'could not log a webhook test ping'));
  }
}
