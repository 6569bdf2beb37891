import type { RedisClient } from '../../src/platform/redis/redis.js';
import { scanNode } from '../../src/platform/redis/scan-keys.js';
import { onEveryMaster } from './stack.js';

/** Every key matching `pattern`, on a single Redis or on every master of a cluster once it is ready (SCAN reads one node). */
export async function scanKeys(client: RedisClient, pattern: string): Promise<string[]> {
  return (await onEveryMaster(client, (node) => scanNode(node, pattern))).flat();
}
