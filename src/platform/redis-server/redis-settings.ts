import { Cluster } from 'ioredis';
import type { RedisClient } from '../redis/redis.js';

/**
 * How many integer members a set keeps in Redis's compact form (an intset: 4 bytes a member instead of
 * about 50 in a hash table). The discovery index sets hold account ids; 4,096 keeps every set of an index
 * partition compact up to about 100,000 accounts a pool (bench/discovery-scale.ts) and the commonest
 * interests' sets beyond. An intset is searched by halving and written by moving at most 16 KiB, and
 * lua/dropped_targets-2+.lua pages one by value (SSCAN answers it whole), so no call grows with it.
 */
export const INDEX_SET_INTSET_ENTRIES = 4_096;

/** What a redis-server the service starts itself is given (the embedded default, the tests' and bench's servers). */
export const REDIS_SERVER_SETTINGS: readonly string[] = ['--set-max-intset-entries', String(INDEX_SET_INTSET_ENTRIES)];

/**
 * A one-line advice when the Redis (each master, on a cluster) keeps fewer set members compact than the
 * index is laid out for: everything works, at more memory per agent. Undefined when it is set, or when
 * CONFIG cannot be read (a managed Redis may forbid it).
 */
export async function memorySettingsAdvice(redis: RedisClient): Promise<string | undefined> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const values = await Promise.all(
    nodes.map(async (node) => {
      try {
        const reply = await node.config('GET', 'set-max-intset-entries');
        return Number(reply[1]);
      } catch {
        return undefined;
      }
    }),
  );
  const low = values.filter((value): value is number => value !== undefined && value < INDEX_SET_INTSET_ENTRIES);
  if (low.length === 0) return undefined;
  return `Redis keeps sets of up to ${Math.min(...low)} members compact (set-max-intset-entries); set it to ${INDEX_SET_INTSET_ENTRIES} (CONFIG SET set-max-intset-entries ${INDEX_SET_INTSET_ENTRIES}, and in redis.conf) for the memory per agent of docs/scaling.md: the discovery index sets take more memory until then.`;
}
