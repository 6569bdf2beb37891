import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import type { RedisClient } from '../../platform/redis/redis.js';

/**
 * Which of `ids` a block (either way) keeps from the viewer: one HMGET of the viewer's hidden mark
 * (src/platform/redis/keys.ts, `hidden`) for a page's ids, whatever the number of blocks. Discovery
 * leaves them out of its pages; a profile read answers them as absent.
 */
export async function hiddenFrom(redis: RedisClient, pool: Pool, viewer: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const marks = await redis.hmget(keys.hidden(pool, viewer), ...ids.map(String));
  return new Set(ids.filter((_, i) => marks[i] !== null));
}

/** The accounts a block (either way) keeps from a viewer, for the services that answer them as absent. */
export class HiddenAccountsRepository {
  constructor(private readonly redis: RedisClient) {}

  /** Which of `ids` are hidden from `viewer` (one HMGET). */
  among(pool: Pool, viewer: number, ids: readonly number[]): Promise<Set<number>> {
    return hiddenFrom(this.redis, pool, viewer, ids);
  }
}
