import { randomUUID } from 'node:crypto';
import type { Pool } from '../core/pool.js';
import { keys } from '../redis/keys.js';
import { isStoreFullError } from '../redis/redis-errors.js';
import { replyList } from '../redis/raw-reply.js';
import { script, type ScriptReply } from '../redis/script.js';
import type { Scripts } from '../redis/scripts.js';

export type RateLimitResult = { allowed: boolean; hits: number; retryAfterSeconds: number };
/** One hit of a fixed window: within the limit or not, and the ms left in the window. */
export type FixedWindowHit = { allowed: boolean; retryAfterMs: number };

/** lua/rate_limit-1.lua: within the limit or not, the hits in the window, the ms until the next hit is allowed. */
export const rateLimit = script('rate_limit', (raw) => {
  const [allowed, hits, waitMs] = replyList(raw);
  return { allowed: allowed === 1, hits: Number(hits), waitMs: Number(waitMs) };
});

const fixedWindowHit = script('fixed_window_hit', (raw): FixedWindowHit => {
  const [allowed, left] = replyList(raw);
  return { allowed: allowed === 1, retryAfterMs: Number(left) };
});

/**
 * Counts hits atomically in Redis (one Lua script), so a limit holds across every server process.
 * While Redis is full it cannot record a hit: the hit is let through uncounted, so a request that only
 * reads (a login) keeps working, and one that writes is refused by its own write anyway.
 */
export class RateLimiter {
  constructor(private readonly scripts: Scripts) {}

  async hit(name: string, subject: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    let reply: ScriptReply<typeof rateLimit>;
    try {
      reply = await this.scripts.run(rateLimit, [keys.rateLimit(name, subject)], [limit, windowSeconds * 1000, randomUUID()]);
    } catch (error) {
      if (isStoreFullError(error)) return { allowed: true, hits: 0, retryAfterSeconds: 1 };
      throw error;
    }
    const { allowed, hits, waitMs } = reply;
    return { allowed, hits, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /**
   * Counts one request of an account in a fixed window (one short script); `retryAfterMs` is the rest of the
   * window. Unlike `hit`, a full Redis throws: the caller decides what an uncounted request means.
   */
  hitAccount(name: string, account: { pool: Pool; userId: number }, limit: number, windowSeconds: number): Promise<FixedWindowHit> {
    return this.hitFixedWindow(keys.accountRateLimit(name, account.pool, account.userId), limit, windowSeconds);
  }

  /**
   * Counts one request of a client address in a fixed window, like `hitAccount`: one small counter per
   * address, for limits high enough that a sliding window's log of every hit would cost too much memory.
   */
  hitAddress(name: string, address: string, limit: number, windowSeconds: number): Promise<FixedWindowHit> {
    return this.hitFixedWindow(keys.rateLimit(name, address), limit, windowSeconds);
  }

  private hitFixedWindow(key: string, limit: number, windowSeconds: number): Promise<FixedWindowHit> {
    return this.scripts.run(fixedWindowHit, [key], [limit, windowSeconds * 1000]);
  }
}
