import { errors } from '../domain/errors.js';
import type { Logger } from '../logger.js';
import type { RateLimiter } from '../store/rate-limiter.js';

/** Accounts whose last verdict is remembered, at most (expired ones are dropped past this). */
const REMEMBERED_LIMIT = 50_000;

/**
 * WebSocket upgrades per account, counted in Redis (the RateLimiter), so the count is shared by every process.
 *
 * Every upgrade is one hit. An account this process last heard to have room for more is let through at
 * once and its hit recorded meanwhile; only one whose last verdict (within the window) left no room waits
 * for Redis's answer, and is refused with 429 when over the limit. So an account can go past the limit by
 * at most one upgrade per process before it is refused. Waiting as little as possible matters beyond speed:
 * an upgrade completed after an await goes through `res.cork`, which in this uWS version can close the
 * freshly upgraded socket (uNetworking/uWebSockets#1929).
 */
export class UpgradeRateLimit {
  private readonly verdicts = new Map<string, { hits: number; expiresAt: number }>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly limit: number,
    private readonly windowSeconds: number,
    private readonly logger: Logger,
  ) {}

  /** Nothing when the upgrade may go ahead now; otherwise a promise of Redis's verdict (rejects with 429). */
  check(subject: string): void | Promise<void> {
    const known = this.verdicts.get(subject);
    if (known && known.expiresAt > Date.now() && known.hits + 1 >= this.limit) return this.hit(subject);
    this.hit(subject).catch((error: unknown) => {
      if (!(error instanceof Error && 'code' in error && error.code === 'rate_limited')) {
        this.logger.debug({ err: (error as Error).message }, 'could not count a WebSocket upgrade');
      }
    });
  }

  private async hit(subject: string): Promise<void> {
    const result = await this.limiter.hit('ws_upgrade', subject, this.limit, this.windowSeconds);
    this.remember(subject, result.hits);
    if (!result.allowed) throw errors.rateLimited(result.retryAfterSeconds, 'WebSocket connections for this account');
  }

  private remember(subject: string, hits: number) {
    const now = Date.now();
    if (this.verdicts.size >= REMEMBERED_LIMIT) {
      for (const [key, verdict] of this.verdicts) if (verdict.expiresAt <= now) this.verdicts.delete(key);
      if (this.verdicts.size >= REMEMBERED_LIMIT) this.verdicts.delete(this.verdicts.keys().next().value!);
    }
    this.verdicts.delete(subject);
    this.verdicts.set(subject, { hits, expiresAt: now + this.windowSeconds * 1000 });
  }
}
