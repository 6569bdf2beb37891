import type { RedisClient } from './redis.js';
import { KEY_PREFIX } from './key-space.js';
import type { RedisTopology } from '../domain/redis-topology.js';
import { describeRedis, UnsupportedRedisError } from './redis-requirements-check.js';

/** Keys only the earlier layout (before every key carried the `am:` prefix and a hash tag) wrote. */
const EARLIER_LAYOUT_KEYS = ['seq:user', 'seq:agent:user', 'seq:member:user', 'config:token_secret'];

/**
 * Refuses a Redis that holds the service's data in the earlier key layout: the service would not see it,
 * and accounts, matches and messages would look lost. Checked one key at a time, as a cluster needs.
 */
export async function assertCurrentKeyLayout(redis: RedisClient, topology: RedisTopology): Promise<void> {
  const found = await Promise.all(EARLIER_LAYOUT_KEYS.map((key) => redis.exists(key)));
  if (found.some((count) => count > 0)) {
    throw new UnsupportedRedisError(
      `Redis at ${describeRedis(topology)} holds this service's data in the key layout of an earlier version (keys without the ${KEY_PREFIX} prefix); point REDIS_URL, REDIS_CLUSTER_NODES or DATA_DIR at an empty database, or keep running the earlier version on this one.`,
    );
  }
}
