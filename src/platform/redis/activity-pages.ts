import type { RedisClient } from './redis.js';

import type { Page, PageRequest } from '../core/page.js';
import type { ActivityCursor } from '../core/page-positions.js';

/**
 * One page of a sorted set of ids scored by activity, newest first, after `after`. Ties on the score are
 * in reverse member order (as ZREVRANGEBYSCORE gives them), so (score, member) is a total order and a
 * cursor neither skips nor repeats an item when others are added meanwhile. One round trip.
 */
export async function activityPage(redis: RedisClient, key: string, page: PageRequest<ActivityCursor>): Promise<Page<number, ActivityCursor>> {
  return pageOf(await activityEntries(redis, key, page), page.limit);
}

/**
 * The same page over several sorted sets taken together (the partitions of one list): each gives its own
 * first `limit + 1` entries after the cursor, and the merge keeps the first `limit` in the same total order.
 */
export async function activityPageAcross(
  redis: RedisClient,
  keyList: readonly string[],
  page: PageRequest<ActivityCursor>,
): Promise<Page<number, ActivityCursor>> {
  const all = (await Promise.all(keyList.map((key) => activityEntries(redis, key, page)))).flat();
  all.sort(([a, at], [b, bt]) => bt - at || (a < b ? 1 : a > b ? -1 : 0));
  return pageOf(all, page.limit);
}

/** Up to `limit + 1` entries of one sorted set after the cursor, in page order. */
async function activityEntries(redis: RedisClient, key: string, { limit, after }: PageRequest<ActivityCursor>): Promise<Array<[string, number]>> {
  if (!after) return pairs(await redis.zrevrange(key, 0, limit, 'WITHSCORES'));
  const member = String(after.id);
  const [ties, older] = await Promise.all([
    redis.zrevrangebyscore(key, after.at, after.at),
    redis.zrevrangebyscore(key, `(${after.at}`, '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 1),
  ]);
  return [...ties.filter((m) => m < member).map((m): [string, number] => [m, after.at]), ...pairs(older)];
}

function pageOf(entries: Array<[string, number]>, limit: number): Page<number, ActivityCursor> {
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
