import { randomBytes } from 'node:crypto';
import { AppError, errors } from '../../platform/core/errors.js';
import type { Principal } from '../../platform/core/principal.js';
import { DEFAULT_WEBHOOK_EVENT_TYPES, type NewWebhook, type WebhookChange } from './webhook-schemas.js';
import type { WebhookFields, WebhookRecord, WebhookRepository } from './webhook-repository.js';
import type { WebhookChains } from './webhook-chains.js';
import { checkWebhookUrl, RefusedDestination, type DestinationPolicy } from './webhook-destinations.js';
import type { WebhookPings } from './webhook-pings.js';
import { newWebhookSecret } from './webhook-signature.js';

export type WebhookPolicy = {
  maxPerAccount: number;
  destinations: DestinationPolicy;
  /** How long the previous secret still signs deliveries after a rotation (ms). */
  secretOverlapMs: number;
};

/** A webhook as the API shows it (never its secret, which only creation and rotation answer with). */
export type WebhookView = {
  id: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  created_at: string;
  disabled_reason: string | null;
  disabled_at: string | null;
};

const ID_PATTERN = /^wh_[0-9a-f]{24}$/;
const DELIVERY_LIST_MAX = 50;

/** An account's webhooks: create (within a cap), read, change, delete, rotate the secret, send a test ping. */
export class WebhookService {
  constructor(
    private readonly store: WebhookRepository,
    private readonly chains: WebhookChains,
    private readonly pings: WebhookPings,
    private readonly policy: WebhookPolicy,
  ) {}

  async create(who: Principal, input: NewWebhook): Promise<WebhookView & { secret: string }> {
    const url = await this.checkedUrl(input.url);
    const record = {
      id: `wh_${randomBytes(12).toString('hex')}`,
      url,
      eventTypes: input.event_types ?? [...DEFAULT_WEBHOOK_EVENT_TYPES],
      enabled: true,
      secret: newWebhookSecret(),
      createdAt: new Date().toISOString(),
    };
    if (!(await this.store.create(who.pool, who.userId, this.policy.maxPerAccount, record))) {
      throw errors.invalidField('url', `you already have ${this.policy.maxPerAccount} webhooks, the most an account may have; delete one first`);
    }
    return { ...view({ ...record, cursor: '' }), secret: record.secret };
  }

  async list(who: Principal): Promise<WebhookView[]> {
    return (await this.store.list(who.pool, who.userId)).map(view);
  }

  async get(who: Principal, id: string): Promise<WebhookView> {
    return view(await this.found(who, id));
  }

  async change(who: Principal, id: string, input: WebhookChange): Promise<WebhookView> {
    const before = await this.found(who, id);
    const fields: WebhookFields = {};
    if (input.url !== undefined) fields.url = await this.checkedUrl(input.url);
    if (input.event_types !== undefined) fields.event_types = input.event_types.join(',');
    if (input.enabled === true && !before.enabled) Object.assign(fields, { enabled: '1', disabled_reason: '', disabled_at: '' });
    if (input.enabled === false && before.enabled)
      Object.assign(fields, { enabled: '0', disabled_reason: 'disabled by its owner', disabled_at: new Date().toISOString() });
    if (!(await this.store.update(who.pool, who.userId, id, fields))) throw errors.notFound('webhook');
    const after = await this.found(who, id);
    // Re-enabled, or taking other types: the chain resumes from the oldest event not yet delivered.
    await this.chains.kick(who.pool, who.userId, after);
    return view(after);
  }

  async delete(who: Principal, id: string): Promise<void> {
    if (!ID_PATTERN.test(id) || !(await this.store.delete(who.pool, who.userId, id))) throw errors.notFound('webhook');
  }

  /** A new secret; the previous one keeps signing deliveries (as a second signature) for the overlap period. */
  async rotateSecret(who: Principal, id: string): Promise<{ secret: string; previous_secret_expires_at: string }> {
    const hook = await this.found(who, id);
    const secret = newWebhookSecret();
    const until = Date.now() + this.policy.secretOverlapMs;
    const fields: WebhookFields = { secret, previous_secret: hook.secret, previous_secret_until: String(until) };
    if (!(await this.store.update(who.pool, who.userId, id, fields, { field: 'secret', is: hook.secret }))) {
      throw new AppError('validation_failed', 'The secret was rotated at the same moment by another request; read it again or rotate once more.');
    }
    return { secret, previous_secret_expires_at: new Date(until).toISOString() };
  }

  /** Sends one `webhook.ping` (not part of the event chain, not retried); its attempt shows in the deliveries. */
  async ping(who: Principal, id: string): Promise<{ event_id: string }> {
    return this.pings.send(who.pool, who.userId, await this.found(who, id));
  }

  /** The latest delivery attempts, newest first. */
  async deliveries(who: Principal, id: string, limit = DELIVERY_LIST_MAX): Promise<unknown[]> {
    await this.found(who, id);
    return (await this.store.attempts(who.pool, who.userId, id, Math.min(limit, DELIVERY_LIST_MAX))).map((raw) => JSON.parse(raw) as unknown);
  }

  private async found(who: Principal, id: string): Promise<WebhookRecord> {
    const hook = ID_PATTERN.test(id) ? await this.store.find(who.pool, who.userId, id) : undefined;
    if (!hook) throw errors.notFound('webhook');
    return hook;
  }

  private async checkedUrl(raw: string): Promise<string> {
    try {
      return (await checkWebhookUrl(raw, this.policy.destinations)).href;
    } catch (error) {
      if (error instanceof RefusedDestination) throw errors.invalidField('url', error.reason);
      throw error;
    }
  }
}

function view(hook: WebhookRecord): WebhookView {
  return {
    id: hook.id,
    url: hook.url,
    event_types: hook.eventTypes,
    enabled: hook.enabled,
    created_at: hook.createdAt,
    disabled_reason: hook.disabledReason ?? null,
    disabled_at: hook.disabledAt ?? null,
  };
}
