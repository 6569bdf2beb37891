import type { RedisClient } from '../redis/redis.js';
import { KEY_PREFIX } from '../redis/key-space.js';
import { keys } from '../redis/keys.js';
import type { RedisTopology } from '../redis/redis-topology.js';
import { describeRedis, UnsupportedRedisError } from './redis-requirements-check.js';

/**
 * The key layout this version reads and writes, recorded in Redis (keys.keyLayout) by the first process
 * that starts on an empty database. Raised whenever stored data changes form: 3 keeps each thread as a
 * stream (layout 2 kept it as a sorted set of message JSON; `migrate` moves it); 2 keeps each account as
 * one field of its index partition's accounts hash, beside its discovery entries and the roster (layout 1
 * kept it in a hash of its own per shard, with a profile card, creation-time, birthdate and gender
 * indexes in the partition and one key per e-mail).
 */
export const KEY_LAYOUT = 3;

/** The layout `migrate` (src/layout-migration.ts) moves to this one. */
export const MOVABLE_KEY_LAYOUT = 2;

/** Keys only the first layout (before every key carried the `am:` prefix and a hash tag) wrote. */
const UNPREFIXED_LAYOUT_KEYS = ['seq:user', 'seq:agent:user', 'seq:member:user', 'config:token_secret'];

/**
 * Refuses a Redis that holds the service's data in the key layout of an earlier version: the service
 * would not see it, and accounts, matches and messages would look lost. A database holding accounts but
 * no layout mark was written before the mark existed (layout 1). Checked one key at a time, as a cluster
 * needs; on a database with no data of the service, the current layout is recorded.
 */
export async function assertCurrentKeyLayout(redis: RedisClient, topology: RedisTopology): Promise<void> {
  const refuse = (what: string, which = 'an earlier') =>
    new UnsupportedRedisError(
      `Redis at ${describeRedis(topology)} holds this service's data in the key layout of ${which} version (${what}); point REDIS_URL, REDIS_CLUSTER_NODES or DATA_DIR at an empty database, or keep running that version on this one.`,
    );
  const unprefixed = await Promise.all(UNPREFIXED_LAYOUT_KEYS.map((key) => redis.exists(key)));
  if (unprefixed.some((count) => count > 0)) throw refuse(`keys without the ${KEY_PREFIX} prefix`);
  let layout = await redis.get(keys.keyLayout());
  if (layout === null) {
    const accounts = await Promise.all([redis.exists(keys.userSeq('agent')), redis.exists(keys.userSeq('member'))]);
    if (accounts.some((count) => count > 0)) throw refuse('layout 1');
    await redis.set(keys.keyLayout(), KEY_LAYOUT, 'NX');
    layout = await redis.get(keys.keyLayout());
  }
  if (layout === String(MOVABLE_KEY_LAYOUT)) {
    throw new UnsupportedRedisError(
      `Redis at ${describeRedis(topology)} holds this service's data in key layout ${MOVABLE_KEY_LAYOUT}; stop every process of the service and move it to layout ${KEY_LAYOUT} with \`npm run migrate\` (node dist/main.js migrate), given the same REDIS_URL, REDIS_CLUSTER_NODES or DATA_DIR.`,
    );
  }
  if (layout !== String(KEY_LAYOUT)) throw refuse(`layout ${layout}`, Number(layout) > KEY_LAYOUT ? 'a later' : 'an earlier');
}

/** The layout recorded in Redis: null when none is (a database without the service's data, or layout 1). */
export const recordedKeyLayout = async (redis: RedisClient): Promise<number | null> => {
  const layout = await redis.get(keys.keyLayout());
  return layout === null ? null : Number(layout);
};
