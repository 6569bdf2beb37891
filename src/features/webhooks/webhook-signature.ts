import { createHmac, randomBytes } from 'node:crypto';

/** The prefix of a secret in the Standard Webhooks convention: the rest is the base64 of the key. */
const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks libraries expect. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** One signature (`v1,<base64 HMAC-SHA256>`) of `${id}.${timestamp}.${body}` with a `whsec_` secret. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-*` headers of one delivery: signed with every secret given (during a rotation's overlap, two), space-separated. */
export function webhookHeaders(secrets: readonly string[], id: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' '),
  };
}
