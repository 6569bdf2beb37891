import type { Pool } from '../core/pool.js';
import type { RateLimiter } from './rate-limit-repository.js';
import type { AccountLimit } from './account-limits.js';

/** One upgrade counted: whether it fits the limit, the hits in the window including it, and when to retry. */
export type UpgradeCount = { allowed: boolean; hits: number; retryAfterSeconds: number };

/**
 * WebSocket upgrades per account: a sliding window per account in Redis, so the limit holds across every
 * server process. While Redis is full an upgrade is let through uncounted.
 */
export class UpgradeLimits {
  constructor(
    private readonly limiter: RateLimiter,
    readonly limit: AccountLimit,
  ) {}

  /** Counts one upgrade of the account; the caller refuses it when it is not `allowed`. */
  count(account: { pool: Pool; userId: number }): Promise<UpgradeCount> {
    return this.limiter.hit('ws_upgrade', `${account.pool}:${account.userId}`, this.limit.limit, this.limit.windowSeconds);
  }
}
