import type { RedisClient } from '../../src/platform/redis/redis.js';
import type { Pool } from '../../src/platform/core/pool.js';
import { ALL_PARTITIONS } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';

/** Every current match id of the pool, from all partitions of its match list. */
export async function poolMatchIds(redis: RedisClient, pool: Pool): Promise<string[]> {
  const lists = await Promise.all(ALL_PARTITIONS.map((partition) => redis.zrange(keys.poolMatches(pool, partition), '0', '-1')));
  return lists.flat();
}
