import type { RedisClient } from './redis.js';

import type { Page, PageRequest } from '../domain/page.js';
import type { ActivityCursor } from '../domain/page-positions.js';

/**
 * One page of a sorted set of ids scored by activity, newest first, after `after`. Ties on the score are
 * in reverse member order (as ZREVRANGEBYSCORE gives them), so (score, member) is a total order and a
 * cursor neither skips nor repeats an item when others are added meanwhile. One round trip.
 */
export async function activityPage(redis: RedisClient, key: string, { limit, after }: PageRequest<ActivityCursor>): Promise<Page<number, ActivityCursor>> {
  let entries: Array<[string, number]>;
  if (!after) {
    entries = pairs(await redis.zrevrange(key, 0, limit, 'WITHSCORES'));
  } else {
    const member = String(after.id);
    const [ties, older] = await Promise.all([
      redis.zrevrangebyscore(key, after.at, after.at),
      redis.zrevrangebyscore(key, `(${after.at}`, '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 1),
    ]);
    entries = [...ties.filter((m) => m < member).map((m): [string, number] => [m, after.at]), ...pairs(older)];
  }
  const page = entries.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(([id]) => Number(id)),
    next: entries.length > limit && last ? { at: last[1], id: Number(last[0]) } : null,
  };
}

function pairs(flat: string[]): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, Number(flat[i + 1])]);
  return out;
}
