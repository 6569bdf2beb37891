import type { Pool } from '../../platform/core/pool.js';
import { ALL_PARTITIONS } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';

/** lua/adjust_pool_size-1.lua: the count after the change, undefined when the count is not built yet. */
const adjustPoolSizeScript = script('adjust_pool_size', (raw) => (raw === null || raw === undefined ? undefined : Number(raw)));

/**
 * How long the pool's count of discoverable accounts lives before the next read builds it again from the
 * partitions: a change a crash left uncounted (between an account's script and its count's step), or one
 * made while the count was being built, is counted right from then on.
 */
export const POOL_SIZE_REBUILD_SECONDS = 600;

/**
 * Moves the pool's count of discoverable accounts (keys.poolSize) by `delta`, after the script that put an
 * account into the discovery indexes (+1) or took it out (-1) applied. The count lives in a slot of its
 * own, so it is a step of its own; nothing is written while the count is not built (its build counts the change).
 */
export async function adjustPoolSize(scripts: Scripts, pool: Pool, delta: 1 | -1): Promise<void> {
  await scripts.run(adjustPoolSizeScript, [keys.poolSize(pool)], [delta]);
}

/**
 * How many accounts of the pool discovery shows (neither suspended nor leaving): one GET of the count;
 * when it is absent (never built, or lapsed), built from the partitions first, one HLEN of the accounts
 * and one of the suspensions per partition, sent together.
 */
export async function discoverableCount(redis: RedisClient, pool: Pool): Promise<number> {
  const kept = await redis.get(keys.poolSize(pool));
  if (kept !== null) return Number(kept);
  const perPartition = await Promise.all(
    ALL_PARTITIONS.map((part) => Promise.all([redis.hlen(keys.accounts(pool, part)), redis.hlen(keys.suspensions(pool, part))])),
  );
  const size = perPartition.reduce((sum, [accounts, suspended]) => sum + accounts - suspended, 0);
  // Another reader may have built it meanwhile: the first count stands.
  await redis.set(keys.poolSize(pool), size, 'EX', POOL_SIZE_REBUILD_SECONDS, 'NX');
  return size;
}
