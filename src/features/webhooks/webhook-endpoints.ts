import { z } from 'zod';
import type { AuthedEndpoint } from '../../platform/http/types.js';
import { newWebhookSchema, webhookChangeSchema, WEBHOOK_EVENT_TYPES } from './webhook-schemas.js';

const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    created_at: z.string(),
    disabled_reason: z.string().nullable(),
    disabled_at: z.string().nullable(),
  })
  .meta({ id: 'Webhook' });
const createdWebhookSchema = webhookSchema.extend({ secret: z.string() }).meta({ id: 'CreatedWebhook' });
const deliverySchema = z
  .object({
    event_id: z.string(),
    event_type: z.string(),
    attempt: z.number().int(),
    outcome: z.enum(['delivered', 'failed', 'disabled']),
    status: z.number().int().nullable(),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    at: z.string(),
    next_retry_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

/** The `:id` of a webhook's path: the id its creation answered (an id of no webhook of yours is a 404). */
const webhookIdParam = { id: z.string().meta({ description: 'The webhook id, as its creation answered it (wh_…).' }) };

const WEBHOOK_DOC =
  'Deliveries are POSTs of the event frame ({id, type, at, data}, as on /api/v1/ws) signed by the Standard Webhooks convention (webhook-id, webhook-timestamp, webhook-signature).';
const URL_DOC =
  'url: http or https, port 80 or 443 by default, at a public address (private, loopback, link-local and reserved addresses, IPv4 or IPv6, and every IPv6 form of an IPv4 address are refused with 400).';

const create: AuthedEndpoint = {
  method: 'POST',
  path: '/api/v1/webhooks',
  auth: true,
  body: true,
  doc: {
    summary: `Create a webhook: your events (event_types; omitted, every type but message.read) are POSTed to url. ${URL_DOC} ${WEBHOOK_DOC} The answer shows the signing secret (whsec_…) this once. At most 5 webhooks per account by default.`,
    tags: ['webhooks'],
    body: newWebhookSchema,
    response: { status: 201, schema: createdWebhookSchema, description: 'The webhook and its signing secret.' },
    errors: [400, 415],
  },
};

const list: AuthedEndpoint = {
  method: 'GET',
  path: '/api/v1/webhooks',
  auth: true,
  doc: {
    summary: 'Your webhooks.',
    tags: ['webhooks'],
    response: { status: 200, schema: z.object({ items: z.array(webhookSchema) }), description: 'Every webhook of your account, oldest first.' },
  },
};

const get: AuthedEndpoint = {
  method: 'GET',
  path: '/api/v1/webhooks/:id',
  auth: true,
  doc: {
    params: webhookIdParam,
    summary: 'One of your webhooks.',
    tags: ['webhooks'],
    response: { status: 200, schema: webhookSchema, description: 'The webhook.' },
    errors: [404],
  },
};

const change: AuthedEndpoint = {
  method: 'PATCH',
  path: '/api/v1/webhooks/:id',
  auth: true,
  body: true,
  doc: {
    params: webhookIdParam,
    summary:
      'Change a webhook: url, event_types, or enabled (true re-enables a disabled webhook; delivery resumes with the oldest event not yet delivered that is still kept, up to 24 h).',
    tags: ['webhooks'],
    body: webhookChangeSchema,
    response: { status: 200, schema: webhookSchema, description: 'The webhook as changed.' },
    errors: [400, 404, 415],
  },
};

const remove: AuthedEndpoint = {
  method: 'DELETE',
  path: '/api/v1/webhooks/:id',
  auth: true,
  doc: {
    params: webhookIdParam,
    summary: 'Delete a webhook; nothing more is delivered to it.',
    tags: ['webhooks'],
    response: { status: 204, description: 'Deleted.' },
    errors: [404],
  },
};

const rotateSecret: AuthedEndpoint = {
  method: 'POST',
  path: '/api/v1/webhooks/:id/rotate-secret',
  auth: true,
  doc: {
    params: webhookIdParam,
    summary:
      'A new signing secret. The previous one keeps signing deliveries too (a second signature in webhook-signature) until previous_secret_expires_at (24 h by default).',
    tags: ['webhooks'],
    response: {
      status: 200,
      schema: z.object({ secret: z.string(), previous_secret_expires_at: z.string() }),
      description: 'The new secret, shown this once.',
    },
    errors: [404],
  },
};

const test: AuthedEndpoint = {
  method: 'POST',
  path: '/api/v1/webhooks/:id/test',
  auth: true,
  doc: {
    params: webhookIdParam,
    summary:
      'Send a webhook.ping event to the webhook now (one attempt, not retried); its result shows in the deliveries. One ping per webhook at a time: another while one waits for its answer is a 429.',
    tags: ['webhooks'],
    response: { status: 202, schema: z.object({ event_id: z.string() }), description: 'The ping is on its way.' },
    errors: [404, 429],
  },
};

const deliveries: AuthedEndpoint = {
  method: 'GET',
  path: '/api/v1/webhooks/:id/deliveries',
  auth: true,
  doc: {
    params: webhookIdParam,
    summary: 'The latest delivery attempts of a webhook (up to 50), newest first: outcome, HTTP status, latency, error and when the next retry is due.',
    tags: ['webhooks'],
    response: { status: 200, schema: z.object({ items: z.array(deliverySchema) }), description: 'The attempts.' },
    errors: [404],
  },
};

/** The webhook routes as declared (webhook-routes.ts gives each its handler). */
export const webhookEndpoints = { create, list, get, change, remove, rotateSecret, test, deliveries };
