import type { RedisClient } from '../../src/store/redis.js';
import type { Pool } from '../../src/domain/pool.js';
import { ALL_SHARDS } from '../../src/store/key-space.js';
import { keys } from '../../src/store/keys.js';

/** How many pending records the pool's outboxes hold, over every shard. */
export async function pendingRecords(redis: RedisClient, pool: Pool): Promise<number> {
  const counts = await Promise.all(ALL_SHARDS.map((shard) => redis.hlen(keys.shardOutbox(pool, shard))));
  return counts.reduce((sum, n) => sum + n, 0);
}
