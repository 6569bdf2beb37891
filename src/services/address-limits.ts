import { errors } from '../domain/errors.js';
import type { RateLimiter } from '../store/rate-limiter.js';

/** Requests allowed per client address per window. */
export type AddressLimit = { limit: number; windowSeconds: number };

/** The limits counted per client address (before there is an account to count against). */
export type AddressLimitName = 'register' | 'login' | 'spectator';

const WHAT: Record<AddressLimitName, string> = {
  register: 'registrations from this address',
  login: 'login attempts from this address',
  spectator: 'spectator stream connections from this address',
};

/** Per-address request limits: a sliding window per address in Redis, shared by every server process. */
export class AddressLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: Record<AddressLimitName, AddressLimit>,
  ) {}

  /** Counts one attempt from the address; past the limit throws 429 `rate_limited` with Retry-After. */
  async take(name: AddressLimitName, address: string): Promise<void> {
    const { limit, windowSeconds } = this.limits[name];
    const hit = await this.limiter.hit(name, address, limit, windowSeconds);
    if (!hit.allowed) throw errors.rateLimited(hit.retryAfterSeconds, WHAT[name]);
  }
}
