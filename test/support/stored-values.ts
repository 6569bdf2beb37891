import type { RedisClient } from '../../src/platform/redis/redis.js';
import { scanKeys } from './scan-keys.js';

/** How many times `text` occurs in one stored value. */
const occurrences = (value: string, text: string) => value.split(text).length - 1;

/** Every value a key holds, as text: a string, each field and value of a hash, member of a set, entry of a stream. */
async function valuesOf(redis: RedisClient, key: string): Promise<string[]> {
  switch (await redis.type(key)) {
    case 'string':
      return [(await redis.get(key)) ?? ''];
    case 'hash':
      return Object.entries(await redis.hgetall(key)).flat();
    case 'zset':
      return redis.zrange(key, '0', '-1');
    case 'set':
      return redis.smembers(key);
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'stream':
      return ((await redis.xrange(key, '-', '+')) as Array<[string, string[]]>).flatMap(([, fields]) => fields);
    default:
      return [];
  }
}

/** Where `text` is stored: each key of the service holding it, with how many times (on every master of a cluster). */
export async function whereStored(redis: RedisClient, text: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const found = await scanKeys(redis, 'am:*');
  for (const key of found) {
    const count = (await valuesOf(redis, key)).reduce((sum, value) => sum + occurrences(value, text), 0);
    if (count > 0) out[key] = count;
  }
  return out;
}
