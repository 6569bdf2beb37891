import type { Pool } from '../core/pool.js';
import { IDEMPOTENCY_TTL_SECONDS } from './idempotency-ttl.js';
import { keys } from './keys.js';
import { optionalReplyText } from './raw-reply.js';
import { script } from './script.js';
import type { Scripts } from './scripts.js';

/** What an Idempotency-Key names: one request of an operation, by its target and what makes the request itself (a kind, a body's hash). */
export type IdempotentRequest = { target: string; request: string };

/** The operations whose requests take an Idempotency-Key; a key is scoped to the account and the operation. */
export type IdempotentOperation = 'like' | 'message';

const SEPARATOR = '\n';

/** Undefined when the Idempotency-Key is the request's own, else the request holding it. */
const claimIdempotencyKeyScript = script('claim_idempotency_key', optionalReplyText);

/**
 * Claims `key` for `request` of the account's `operation` (lua/claim_idempotency_key-1.lua), for as long as
 * the write's own record is kept: undefined when the key is this request's (claimed now, or a retry of
 * the same request), else the request that holds it (another target, or the same target with another
 * kind or body), and nothing may be done. The write's own script still compares the request with its
 * record, atomically with the write; the claim adds what a record in the target's slot cannot see: the
 * same key sent for another target.
 */
export async function claimIdempotencyKey(
  scripts: Scripts,
  account: { pool: Pool; userId: number },
  operation: IdempotentOperation,
  key: string,
  request: IdempotentRequest,
): Promise<IdempotentRequest | undefined> {
  const held = await scripts.runHot(
    claimIdempotencyKeyScript,
    [keys.idempotencyClaim(account.pool, account.userId, operation, key)],
    [`${request.target}${SEPARATOR}${request.request}`, IDEMPOTENCY_TTL_SECONDS],
  );
  if (held === undefined) return undefined;
  const cut = held.indexOf(SEPARATOR);
  return cut < 0 ? { target: held, request: '' } : { target: held.slice(0, cut), request: held.slice(cut + 1) };
}
