import type { Redis } from 'ioredis';
import { POOLS } from '../domain/pool.js';
import { keys } from './keys.js';

/**
 * Starts each pool's id counters where the counters once shared by both pools stopped, so that ids given
 * out before each pool had its own are never given out again. A counter that already exists is left alone.
 */
export async function carryOverSharedSequences(redis: Redis): Promise<void> {
  const shared = keys.sharedSeqs();
  const perPool = { user: keys.userSeq, match: keys.matchSeq, message: keys.messageSeq };
  for (const kind of ['user', 'match', 'message'] as const) {
    const last = await redis.get(shared[kind]);
    if (last === null) continue;
    await Promise.all(POOLS.map((pool) => redis.set(perPool[kind](pool), last, 'NX')));
  }
}
