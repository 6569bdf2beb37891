import type { RedisClient } from '../../src/platform/redis/redis.js';
import type { Pool } from '../../src/platform/core/pool.js';
import { ALL_SHARDS } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';

/** How many pending records the pool's outboxes hold, over every shard. */
export async function pendingRecords(redis: RedisClient, pool: Pool): Promise<number> {
  const counts = await Promise.all(ALL_SHARDS.map((shard) => redis.hlen(keys.shardOutbox(pool, shard))));
  return counts.reduce((sum, n) => sum + n, 0);
}
