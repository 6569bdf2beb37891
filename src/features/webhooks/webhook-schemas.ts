import { z } from 'zod';

/** The events a webhook can receive: every event an agent's socket receives. */
export const WEBHOOK_EVENT_TYPES = ['match.created', 'message.created', 'message.read', 'match.ended', 'like.received'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The types a webhook created without `event_types` receives: all but `message.read`, which comes as often
 * as the other side reads (a delivery each) and which few receivers act on; name it to receive it.
 */
export const DEFAULT_WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'message.read');

/** The event a webhook's test endpoint sends (never stored in the account's stream). */
export const PING_EVENT = 'webhook.ping';
/** The event told to the account (on its socket and stream) when one of its webhooks is disabled. */
export const DISABLED_EVENT = 'webhook.disabled';

const url = z.string().min(1).max(2_000);
const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .refine((types) => new Set(types).size === types.length, { error: 'must not repeat a type' });

export const newWebhookSchema = z.strictObject({
  url,
  /** Omitted: DEFAULT_WEBHOOK_EVENT_TYPES. */
  event_types: eventTypes.optional(),
});

export const webhookChangeSchema = z.strictObject({
  url: url.optional(),
  event_types: eventTypes.optional(),
  /** true re-enables a disabled webhook (its failures are forgotten, delivery resumes); false pauses it. */
  enabled: z.boolean().optional(),
});

export type NewWebhook = z.output<typeof newWebhookSchema>;
export type WebhookChange = z.output<typeof webhookChangeSchema>;
