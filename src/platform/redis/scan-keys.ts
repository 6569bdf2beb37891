import type { RedisClient } from './redis.js';

/** Every key of one node matching `pattern` (and of `type`, when given): SCAN to its end, about 1,000 keys a call. */
export async function scanNode(node: RedisClient, pattern: string, type?: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = type
      ? await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000, 'TYPE', type)
      : await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found;
}
