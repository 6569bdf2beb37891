import { errors } from '../../../platform/core/errors.js';
import type { Pool } from '../../../platform/core/pool.js';
import type { Logger } from '../../../platform/logger.js';
import type { UpgradeLimits } from '../../../platform/limits/upgrade-limits.js';

/** Accounts whose last verdict is remembered, at most (expired ones are dropped past this). */
const REMEMBERED_LIMIT = 50_000;

/**
 * WebSocket upgrades per account, counted in Redis (UpgradeLimits), so the count is shared by every process.
 *
 * Every upgrade is one hit. An account this process last heard to have room for more, and none of whose
 * hits is still on the way, is let through at once and its hit recorded meanwhile; any other waits for
 * Redis's answer, and is refused with 429 when over the limit. So an account can go past the limit by at
 * most one upgrade per process before it is refused, however slowly Redis answers. Waiting as little as possible matters beyond speed:
 * an upgrade completed after an await goes through `res.cork`, which in this uWS version can close the
 * freshly upgraded socket (uNetworking/uWebSockets#1929).
 */
export class UpgradeRateLimit {
  private readonly verdicts = new Map<string, { hits: number; expiresAt: number }>();
  /** Accounts with a hit let through before its count came back. */
  private readonly unanswered = new Set<string>();

  constructor(
    private readonly limits: UpgradeLimits,
    private readonly logger: Logger,
  ) {}

  /** Nothing when the upgrade may go ahead now; otherwise a promise of Redis's verdict (rejects with 429). */
  check(account: { pool: Pool; userId: number }): void | Promise<void> {
    const subject = subjectOf(account);
    const known = this.verdicts.get(subject);
    if (this.unanswered.has(subject) || (known && known.expiresAt > Date.now() && known.hits + 1 >= this.limits.limit.limit)) return this.hit(account);
    this.unanswered.add(subject);
    this.hit(account)
      .catch((error: unknown) => {
        if (!(error instanceof Error && 'code' in error && error.code === 'rate_limited')) {
          this.logger.debug({ err: (error as Error).message }, 'could not count a WebSocket upgrade');
        }
      })
      .finally(() => this.unanswered.delete(subject));
  }

  private async hit(account: { pool: Pool; userId: number }): Promise<void> {
    const result = await this.limits.count(account);
    this.remember(subjectOf(account), result.hits);
    if (!result.allowed) throw errors.rateLimited(result.retryAfterSeconds, 'WebSocket connections for this account');
  }

  private remember(subject: string, hits: number) {
    const now = Date.now();
    if (this.verdicts.size >= REMEMBERED_LIMIT) {
      for (const [key, verdict] of this.verdicts) if (verdict.expiresAt <= now) this.verdicts.delete(key);
      if (this.verdicts.size >= REMEMBERED_LIMIT) this.verdicts.delete(this.verdicts.keys().next().value!);
    }
    this.verdicts.delete(subject);
    this.verdicts.set(subject, { hits, expiresAt: now + this.limits.limit.windowSeconds * 1000 });
  }
}

const subjectOf = (account: { pool: Pool; userId: number }) => `${account.pool}:${account.userId}`;
