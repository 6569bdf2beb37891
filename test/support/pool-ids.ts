import type { RedisClient } from '../../src/platform/redis/redis.js';
import { ALL_SHARDS } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';

/**
 * Each pool counts its own ids, so a member's id may equal an agent's. A test that proves a cross-pool id
 * is refused (404) needs an id that does not exist in the caller's pool: this moves the member pool's
 * counters far above anything the test's agents use.
 */
export async function moveMemberIdsAway(redis: RedisClient, start = 500_000): Promise<void> {
  const perShard = ALL_SHARDS.flatMap((shard) => [keys.matchSeq('member', shard), keys.messageSeq('member', shard)]);
  for (const key of [keys.userSeq('member'), ...perShard]) {
    const current = Number((await redis.get(key)) ?? 0);
    if (current < start) await redis.set(key, start);
  }
}
