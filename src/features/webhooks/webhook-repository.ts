import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import { replyIsOne } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';

/** One webhook as stored in its account's shard. `cursor` is the id of the last event of the account's stream it was given. */
export type WebhookRecord = {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  secret: string;
  /** The secret before the last rotation, still signed with until `previousSecretUntil` (ms). */
  previousSecret?: string;
  previousSecretUntil?: number;
  createdAt: string;
  cursor: string;
  disabledReason?: string;
  disabledAt?: string;
};

/** Fields of a webhook's hash that a change may set. */
export type WebhookFields = Partial<{
  url: string;
  event_types: string;
  enabled: '1' | '0';
  secret: string;
  previous_secret: string;
  previous_secret_until: string;
  cursor: string;
  disabled_reason: string;
  disabled_at: string;
}>;

const DELIVERY_LOG_LENGTH = 50;

const createWebhook = script('create_webhook', replyIsOne);
const updateWebhook = script('update_webhook', replyIsOne);
const deleteWebhook = script('delete_webhook', replyIsOne);
/** lua/claim_webhook_ping-1.lua: undefined when claimed, else the ms until the ping holding the claim lets go at the latest. */
export const claimWebhookPing = script('claim_webhook_ping', (raw) => (raw === 0 ? undefined : Number(raw)));
const releaseWebhookPing = script('release_webhook_ping', replyIsOne);

/**
 * An account's webhooks and their delivery logs, all under the account's shard tag, so that each write is
 * one Lua call (or one MULTI) in one hash slot: lua/create_webhook-3.lua, update_webhook-1.lua, delete_webhook-3.lua.
 */
export class WebhookRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {}

  /** Creates a webhook unless the account has `cap` already; false when it has. */
  async create(pool: Pool, userId: number, cap: number, record: Omit<WebhookRecord, 'cursor'>): Promise<boolean> {
    const fields = [
      'id',
      record.id,
      'url',
      record.url,
      'event_types',
      record.eventTypes.join(','),
      'enabled',
      record.enabled ? '1' : '0',
      'secret',
      record.secret,
      'created_at',
      record.createdAt,
    ];
    return this.scripts.runAcknowledged(
      createWebhook,
      [keys.webhooks(pool, userId), keys.webhook(pool, userId, record.id), keys.userEvents(pool, userId)],
      [cap, record.id, ...fields],
    );
  }

  async find(pool: Pool, userId: number, webhookId: string): Promise<WebhookRecord | undefined> {
    return toRecord(await this.redis.hgetall(keys.webhook(pool, userId, webhookId)));
  }

  /** The account's webhooks, oldest first. */
  async list(pool: Pool, userId: number): Promise<WebhookRecord[]> {
    const ids = await this.redis.smembers(keys.webhooks(pool, userId));
    const found = await Promise.all(ids.map((id) => this.find(pool, userId, id)));
    return found.filter((hook): hook is WebhookRecord => hook !== undefined).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /** Whether the account has any webhook (the common answer, no, costs one small read per event). */
  async count(pool: Pool, userId: number): Promise<number> {
    return this.redis.scard(keys.webhooks(pool, userId));
  }

  /** Sets fields if the webhook exists and, when `unless` is given, its field still holds the expected value. */
  async update(pool: Pool, userId: number, webhookId: string, fields: WebhookFields, unless?: { field: keyof WebhookFields; is: string }): Promise<boolean> {
    const pairs = Object.entries(fields).flatMap(([field, value]) => [field, value]);
    if (pairs.length === 0) return (await this.redis.exists(keys.webhook(pool, userId, webhookId))) === 1;
    return this.scripts.run(updateWebhook, [keys.webhook(pool, userId, webhookId)], [unless?.field ?? '', unless?.is ?? '', ...pairs]);
  }

  async delete(pool: Pool, userId: number, webhookId: string): Promise<boolean> {
    return this.scripts.run(
      deleteWebhook,
      [keys.webhooks(pool, userId), keys.webhook(pool, userId, webhookId), keys.webhookDeliveries(pool, userId, webhookId)],
      [webhookId],
    );
  }

  /** Notes one delivery attempt (JSON) in the webhook's log, which keeps the latest DELIVERY_LOG_LENGTH. */
  async logAttempt(pool: Pool, userId: number, webhookId: string, attempt: string): Promise<void> {
    const key = keys.webhookDeliveries(pool, userId, webhookId);
    await this.redis
      .multi()
      .lpush(key, attempt)
      .ltrim(key, 0, DELIVERY_LOG_LENGTH - 1)
      .exec();
  }

  /**
   * Claims the webhook's one place for a test ping in flight for `forMs`: undefined when claimed, else the
   * ms until the ping holding it lets go at the latest.
   */
  async claimPing(pool: Pool, userId: number, webhookId: string, pingId: string, forMs: number): Promise<number | undefined> {
    return this.scripts.run(claimWebhookPing, [keys.webhookPing(pool, userId, webhookId)], [pingId, forMs]);
  }

  /** Lets go of the claim of a finished ping (if it still holds it). */
  async releasePing(pool: Pool, userId: number, webhookId: string, pingId: string): Promise<void> {
    await this.scripts.run(releaseWebhookPing, [keys.webhookPing(pool, userId, webhookId)], [pingId]);
  }

  /** The latest attempts (JSON), newest first. */
  attempts(pool: Pool, userId: number, webhookId: string, limit: number): Promise<string[]> {
    return this.redis.lrange(keys.webhookDeliveries(pool, userId, webhookId), 0, limit - 1);
  }
}

function toRecord(hash: Record<string, string>): WebhookRecord | undefined {
  if (!hash.id) return undefined;
  return {
    id: hash.id,
    url: hash.url ?? '',
    eventTypes: hash.event_types ? hash.event_types.split(',') : [],
    enabled: hash.enabled === '1',
    secret: hash.secret ?? '',
    ...(hash.previous_secret ? { previousSecret: hash.previous_secret, previousSecretUntil: Number(hash.previous_secret_until ?? 0) } : {}),
    createdAt: hash.created_at ?? '',
    cursor: hash.cursor ?? '0-0',
    ...(hash.disabled_reason ? { disabledReason: hash.disabled_reason } : {}),
    ...(hash.disabled_at ? { disabledAt: hash.disabled_at } : {}),
  };
}
