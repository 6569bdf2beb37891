import { validate } from '../../platform/core/validation.js';
import { webhookEndpoints as endpoints } from './webhook-endpoints.js';
import { newWebhookSchema, webhookChangeSchema } from './webhook-schemas.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import type { WebhookService } from './webhook-service.js';
import { json, noContent, type Route, type AuthedRequest } from '../../platform/http/types.js';

type Deps = { webhooks: WebhookService; limits: AccountLimits };

export function webhookRoutes({ webhooks, limits }: Deps): Route[] {
  return [
    {
      ...endpoints.create,
      handler: async (req: AuthedRequest) => json(201, await webhooks.create(req.auth, validate(newWebhookSchema, req.body))),
    },
    {
      ...endpoints.list,
      handler: async (req: AuthedRequest) => json(200, { items: await webhooks.list(req.auth) }),
    },
    {
      ...endpoints.get,
      handler: async (req: AuthedRequest) => json(200, await webhooks.get(req.auth, req.params.id ?? '')),
    },
    {
      ...endpoints.change,
      handler: async (req: AuthedRequest) => json(200, await webhooks.change(req.auth, req.params.id ?? '', validate(webhookChangeSchema, req.body))),
    },
    {
      ...endpoints.remove,
      handler: async (req: AuthedRequest) => {
        await webhooks.delete(req.auth, req.params.id ?? '');
        return noContent();
      },
    },
    {
      ...endpoints.rotateSecret,
      handler: async (req: AuthedRequest) => json(200, await webhooks.rotateSecret(req.auth, req.params.id ?? '')),
    },
    {
      ...endpoints.test,
      handler: async (req: AuthedRequest) => {
        await limits.take('webhook_test', req.auth);
        return json(202, await webhooks.ping(req.auth, req.params.id ?? ''));
      },
    },
    {
      ...endpoints.deliveries,
      handler: async (req: AuthedRequest) => json(200, { items: await webhooks.deliveries(req.auth, req.params.id ?? '') }),
    },
  ];
}
