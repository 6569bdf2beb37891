import type { WebhookRecord } from './webhook-repository.js';
import type { SendResult } from './webhook-scheduling.js';

/** One attempt as a webhook's delivery log keeps it (`GET /webhooks/{id}/deliveries`). */
export type Attempt = { eventId: string; type: string; attempt: number; result: SendResult; outcome: string; retryInMs?: number };

export const isSuccess = (result: SendResult) => result.status !== undefined && result.status >= 200 && result.status < 300;
export const describeResult = (result: SendResult) => result.error ?? `HTTP ${result.status}`;

/** The log entry (JSON) of one attempt. */
export function attemptEntry(a: Attempt, now = Date.now()): string {
  return JSON.stringify({
    event_id: a.eventId,
    event_type: a.type,
    attempt: a.attempt,
    outcome: a.outcome,
    status: a.result.status ?? null,
    latency_ms: a.result.latencyMs,
    error: a.result.error ?? (isSuccess(a.result) ? null : `HTTP ${a.result.status}`),
    at: new Date(now).toISOString(),
    next_retry_at: a.retryInMs === undefined ? null : new Date(now + a.retryInMs).toISOString(),
  });
}

/** The secrets a delivery is signed with: the current one, and during a rotation's overlap the previous one. */
export function secretsOf(hook: WebhookRecord): string[] {
  return hook.previousSecret && (hook.previousSecretUntil ?? 0) > Date.now() ? [hook.secret, hook.previousSecret] : [hook.secret];
}
