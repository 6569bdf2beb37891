import { randomUUID } from 'node:crypto';
import { keys } from './keys.js';
import type { Scripts } from './scripts.js';

export type RateLimitResult = { allowed: boolean; hits: number; retryAfterSeconds: number };

/** Counts hits atomically in Redis (one Lua script), so a limit holds across every server process. */
export class RateLimiter {
  constructor(private readonly scripts: Scripts) {}

  async hit(name: string, subject: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const [allowed, hits, waitMs] = await this.scripts.run<[number, number, number]>(
      'rate_limit',
      [keys.rateLimit(name, subject)],
      [limit, windowSeconds * 1000, randomUUID()],
    );
    return { allowed: allowed === 1, hits, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}
