import { errors } from '../core/errors.js';
import { isStoreFullError } from '../redis/redis-errors.js';
import type { FixedWindowHit, RateLimiter } from './rate-limit-repository.js';
import { retryAfterSeconds } from './account-limits.js';

/** Requests allowed per client address per window. */
export type AddressLimit = { limit: number; windowSeconds: number };

/**
 * The limits counted per client address: registrations and logins (before there is an account to count
 * against), and the public spectator reads and stream connections (no account at all).
 */
export type AddressLimitName = 'register' | 'login' | 'spectator' | 'spectator_stream';

/** The limits counted in a fixed window; the others in a sliding one. */
const FIXED_WINDOW: ReadonlySet<AddressLimitName> = new Set(['spectator']);

const WHAT: Record<AddressLimitName, string> = {
  register: 'registrations from this address',
  login: 'login attempts from this address',
  spectator: 'spectator reads from this address',
  spectator_stream: 'spectator stream connections from this address',
};

/**
 * Per-address request limits in Redis, shared by every server process. Registrations and logins count in a
 * sliding window (every attempt counts, so a guesser gains nothing by timing the end of a window); the
 * spectator reads, allowed by the hundred, in a fixed window: one small counter per address however many
 * requests it sends, where a sliding window would log each of them.
 */
export class AddressLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: Record<AddressLimitName, AddressLimit>,
  ) {}

  /** Counts one attempt from the address; past the limit throws 429 `rate_limited` with Retry-After. */
  async take(name: AddressLimitName, address: string): Promise<void> {
    const { limit, windowSeconds } = this.limits[name];
    if (FIXED_WINDOW.has(name)) return this.takeFixed(name, address, limit, windowSeconds);
    const hit = await this.limiter.hit(name, address, limit, windowSeconds);
    if (!hit.allowed) throw errors.rateLimited(hit.retryAfterSeconds, WHAT[name]);
  }

  private async takeFixed(name: AddressLimitName, address: string, limit: number, windowSeconds: number): Promise<void> {
    let hit: FixedWindowHit;
    try {
      hit = await this.limiter.hitAddress(name, address, limit, windowSeconds);
    } catch (error) {
      // Reads keep being served while Redis is full, uncounted.
      if (isStoreFullError(error)) return;
      throw error;
    }
    if (!hit.allowed) throw errors.rateLimited(retryAfterSeconds(hit.retryAfterMs), WHAT[name]);
  }
}
