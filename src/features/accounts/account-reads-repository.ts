import type { Pool } from '../../platform/core/pool.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { hiddenFrom } from './hidden-accounts-repository.js';
import { discoverableCount } from './pool-size-repository.js';
import { storedAccountOf, visibleAccountOf } from './user-repository.js';

/**
 * What other features' repositories read of accounts within their own round trips (a swipe's target, a
 * page's hidden accounts, the pool's size): each call sent at once, so it travels with theirs.
 */
export class AccountReadsRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {}

  /** Account `id` as stored unless absent or suspended (null then), read on the lean connection. */
  visible(pool: Pool, id: number): Promise<string | null> {
    return visibleAccountOf(this.scripts, pool, id);
  }

  /** Account `id` as stored, or null when there is none, read on the lean connection. */
  stored(pool: Pool, id: number): Promise<string | null> {
    return storedAccountOf(this.scripts, pool, id);
  }

  /** Those of `ids` a block (either way) keeps from `viewer`. */
  hiddenFrom(pool: Pool, viewer: number, ids: readonly number[]): Promise<Set<number>> {
    return hiddenFrom(this.redis, pool, viewer, ids);
  }

  /** The pool's count of discoverable accounts. */
  discoverableCount(pool: Pool): Promise<number> {
    return discoverableCount(this.redis, pool);
  }
}
