import { createHash } from 'node:crypto';
import type { RedisClient } from '../../src/platform/redis/redis.js';

const FILLER_PREFIX = 'filler:';

/**
 * Fills Redis up: sets maxmemory just above what it uses, writes until it refuses (OOM), then lowers
 * maxmemory by a margin so that memory freed by chance (a client buffer) cannot let a write in.
 */
export async function fillRedis(client: RedisClient): Promise<void> {
  const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
  await client.config('SET', 'maxmemory', String((await used()) + 1024 * 1024));
  const value = 'x'.repeat(64 * 1024);
  for (let i = 0; ; i++) {
    if (i > 1_000) throw new Error('Redis never filled up');
    const refused = await client.set(`${FILLER_PREFIX}${i}`, value).then(
      () => false,
      (error: Error) => /^OOM/.test(error.message),
    );
    if (refused) break;
  }
  await client.config('SET', 'maxmemory', String((await used()) - 512 * 1024));
}

/** Room again: no memory limit. */
export async function unfillRedis(client: RedisClient): Promise<void> {
  await client.config('SET', 'maxmemory', '0');
}

/**
 * Every key but the filler, with a digest of its type and contents in a canonical order (not DUMP: a
 * hash table's order may change when Redis merely reads it): equal snapshots mean nothing was written.
 */
export async function snapshotKeys(client: RedisClient): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'COUNT', 1_000);
    cursor = next;
    for (const key of found) {
      if (key.startsWith(FILLER_PREFIX)) continue;
      out.set(
        key,
        createHash('sha1')
          .update(JSON.stringify(await contents(client, key)))
          .digest('hex'),
      );
    }
  } while (cursor !== '0');
  return out;
}

async function contents(client: RedisClient, key: string): Promise<unknown> {
  const type = await client.type(key);
  switch (type) {
    case 'string':
      return [type, await client.get(key)];
    case 'hash':
      return [type, Object.entries(await client.hgetall(key)).sort()];
    case 'set':
      return [type, (await client.smembers(key)).sort()];
    case 'zset':
      return [type, await client.zrange(key, '0', '-1', 'WITHSCORES')];
    case 'list':
      return [type, await client.lrange(key, 0, -1)];
    case 'stream':
      return [type, await client.xrange(key, '-', '+')];
    default:
      return [type];
  }
}

/** How many commands Redis has refused for lack of memory since it started. */
export async function refusedForMemory(client: RedisClient): Promise<number> {
  return Number(/errorstat_OOM:count=(\d+)/.exec(await client.info('errorstats'))?.[1] ?? 0);
}
