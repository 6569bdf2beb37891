import { errors } from '../core/errors.js';
import type { Pool } from '../core/pool.js';
import { isStoreFullError } from '../redis/redis-errors.js';
import type { RateLimiter } from './rate-limit-repository.js';

/** Requests allowed per account per window. */
export type AccountLimit = { limit: number; windowSeconds: number };

/** The limits counted by a script of their own (swipes are counted inside the swipe's script). */
export type AccountLimitName = 'discovery' | 'message' | 'read' | 'profile' | 'webhook_test' | 'events' | 'credentials' | 'report' | 'block';

const WHAT: Record<AccountLimitName, string> = {
  discovery: 'discovery reads from this account',
  message: 'messages from this account',
  read: 'read marks from this account',
  profile: 'profile changes from this account',
  webhook_test: 'webhook test pings from this account',
  events: 'event inbox reads from this account',
  credentials: 'password checks and log-outs everywhere from this account',
  report: 'reports from this account today',
  block: 'blocks and unblocks from this account',
};

/** The name of every per-account counter (keys.accountRateLimit): these, and the swipes' own `like`. */
export const ACCOUNT_COUNTER_NAMES: readonly string[] = [...(Object.keys(WHAT) as AccountLimitName[]), 'like'];

export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Per-account request limits: a fixed-window counter per account in Redis (one short script), so a limit
 * holds across every server process.
 */
export class AccountLimits {
  constructor(
    private readonly counter: RateLimiter,
    private readonly limits: Record<AccountLimitName, AccountLimit>,
  ) {}

  /** Counts one request of the account; past the limit throws 429 `rate_limited` with Retry-After. */
  async take(name: AccountLimitName, account: { pool: Pool; userId: number }): Promise<void> {
    const { limit, windowSeconds } = this.limits[name];
    let reply: { allowed: boolean; retryAfterMs: number };
    try {
      reply = await this.counter.hitAccount(name, account, limit, windowSeconds);
    } catch (error) {
      // Reads keep being served while Redis is full; the write they would make is refused anyway.
      if (isStoreFullError(error)) return;
      throw error;
    }
    if (!reply.allowed) throw errors.rateLimited(retryAfterSeconds(reply.retryAfterMs), WHAT[name]);
  }
}
