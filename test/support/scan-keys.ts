import type { RedisClient } from '../../src/platform/redis/redis.js';
import { onEveryMaster } from './stack.js';

/** Every key matching `pattern`, on a single Redis or on every master of a cluster (SCAN reads one node). */
export async function scanKeys(client: RedisClient, pattern: string): Promise<string[]> {
  const perMaster = await onEveryMaster(client, async (node) => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  });
  return perMaster.flat();
}
