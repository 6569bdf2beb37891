import type { Pool } from '../../src/platform/core/pool.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { ROSTER_CODE_BYTES, rosterEntry } from '../../src/features/discovery/roster-repository.js';

/** Writes account `id`'s roster code as lua/create_user-3+.lua does (its slot, and its bucket listed), for tests that build a pool by hand. */
export async function writeRosterCode(redis: RedisClient, pool: Pool, id: number, code: number): Promise<void> {
  const { key, bucket, offset } = rosterEntry(pool, id);
  const bytes = Buffer.alloc(ROSTER_CODE_BYTES);
  bytes.writeUInt32BE(code);
  await redis.setrange(key, offset, bytes);
  await redis.zadd(keys.rosterBuckets(pool, indexPartition(id)), bucket, bucket);
}
