import { userTopic } from '../events/index.js';
import type { Pool } from '../../platform/core/pool.js';
import { DISABLED_EVENT } from './webhook-schemas.js';
import { frameWithId, type EventStreamRepository } from '../events/index.js';
import { userStreamKeys } from '../../platform/redis/keys.js';
import type { WebhookRecord, WebhookRepository } from './webhook-repository.js';
import type { Logger } from '../../platform/logger.js';
import { USER_STREAM_MAX_LENGTH } from '../events/index.js';
import { attemptEntry, describeResult as describe, isSuccess, secretsOf, type Attempt } from './webhook-attempts.js';
import { eventTypeOf, type WebhookChains } from './webhook-chains.js';
import type { DeliveryJob, OutcomeCounter, WebhookTransport } from './webhook-scheduling.js';

/** What a job does next: nothing (done), or try again after `retryInMs`. */
export type DeliveryStep = { retryInMs?: number; error?: string };

export type RetryPolicy = {
  /** The first retry's delay; each next one doubles, with ±20 % jitter. */
  baseMs: number;
  /** Attempts per event, the first included; when the last fails the webhook is disabled. */
  maxAttempts: number;
};

/** The delay before retry number `attempt` (1-based) of an event: exponential, with jitter so failing receivers are not hit in step. */
export const retryDelayMs = (policy: RetryPolicy, attempt: number): number => Math.round(policy.baseMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4));

/**
 * Carries out one delivery job: sends the webhook's next event (only if the job's event is still the
 * chain's next), notes the attempt, and then advances the chain (2xx), disables the webhook (410, or the
 * last attempt failed; the account is told with a `webhook.disabled` event) or asks for a retry.
 */
export class WebhookDeliverer {
  constructor(
    private readonly store: WebhookRepository,
    private readonly chains: WebhookChains,
    private readonly streams: EventStreamRepository,
    private readonly sender: WebhookTransport,
    private readonly retry: RetryPolicy,
    private readonly count: OutcomeCounter,
    private readonly logger: Logger,
  ) {}

  /** `attempt` is 1-based; `final` says no retry follows a failure. */
  async run(job: DeliveryJob, attempt: number, final: boolean): Promise<DeliveryStep> {
    const { pool, userId, webhookId } = job;
    const hook = await this.store.find(pool, userId, webhookId);
    if (!hook?.enabled) return {};
    const next = await this.chains.next(pool, userId, hook);
    if (!next) return {};
    // A job whose event was delivered already (or whose chain moved on) only makes sure the chain goes on.
    if (next.id !== job.eventId) {
      await this.chains.kick(pool, userId, hook);
      return {};
    }
    const type = eventTypeOf(next.body);
    const result = await this.sender.send(hook.url, secretsOf(hook), next.id, frameWithId(next.id, next.body));
    const ok = isSuccess(result);
    const gone = result.status === 410;
    const retryInMs = ok || gone || final ? undefined : retryDelayMs(this.retry, attempt);
    await this.log(pool, userId, hook.id, {
      eventId: next.id,
      type,
      attempt,
      result,
      outcome: ok ? 'delivered' : gone || final ? 'disabled' : 'failed',
      retryInMs,
    });
    if (ok) {
      this.count('delivered');
      const advanced = await this.store.update(pool, userId, hook.id, { cursor: next.id }, { field: 'cursor', is: hook.cursor });
      if (advanced) await this.chains.kick(pool, userId, { ...hook, cursor: next.id });
      return {};
    }
    if (gone || final) {
      this.count(gone ? 'disabled_gone' : 'disabled_failing');
      const reason = gone ? 'the receiver answered 410 Gone' : `${attempt} attempts to deliver event ${next.id} failed (last: ${describe(result)})`;
      await this.disable(pool, userId, hook, reason);
      return {};
    }
    this.count('failed');
    return { retryInMs, error: describe(result) };
  }

  /** Disables the webhook once and tells the account on its event stream (socket and replay). */
  async disable(pool: Pool, userId: number, hook: WebhookRecord, reason: string): Promise<void> {
    const at = new Date().toISOString();
    const changed = await this.store.update(pool, userId, hook.id, { enabled: '0', disabled_reason: reason, disabled_at: at }, { field: 'enabled', is: '1' });
    if (!changed) return;
    this.logger.info({ pool, userId, webhookId: hook.id, reason }, 'webhook disabled');
    await this.streams.append({
      target: userStreamKeys(pool, userId),
      route: userTopic(pool, userId),
      maxLength: USER_STREAM_MAX_LENGTH,
      body: JSON.stringify({ type: DISABLED_EVENT, at, data: { webhook_id: hook.id, url: hook.url, reason } }),
    });
  }

  private async log(pool: Pool, userId: number, webhookId: string, attempt: Attempt) {
    await this.store
      .logAttempt(pool, userId, webhookId, attemptEntry(attempt))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not log a webhook delivery attempt'));
  }
}
