import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountReadsRepository } from '../../src/features/accounts/account-reads-repository.js';
import { SwipeRepository } from '../../src/features/swipes/swipe-repository.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { startStore } from '../support/stack.js';
import { storeAgents } from '../support/stored-accounts.js';

let store: Awaited<ReturnType<typeof startStore>>;
let redis: RedisClient;
let swipes: SwipeRepository;
const SWIPER = 7001;
const SUSPENDED = 7002;
const ABSENT = 7003;

beforeAll(async () => {
  store = await startStore();
  redis = store.redis;
  swipes = new SwipeRepository(redis, store.scripts, new AccountReadsRepository(redis, store.scripts), { limit: 1000, windowSeconds: 60 });
  await storeAgents(redis, [SWIPER, SUSPENDED], 'Back');
  await redis.hset(keys.suspensions('agent', indexPartition(SUSPENDED)), String(SUSPENDED), JSON.stringify({ reason: 'test' }));
});
afterAll(() => store?.cleanup());

/** What the swiper's own keys hold of `target`. */
const own = async (target: number) => ({
  kind: await redis.hget(keys.swipes('agent', SWIPER), String(target)),
  passedAt: await redis.zscore(keys.passes('agent', SWIPER), String(target)),
  feedScore: await redis.zscore(keys.feed('agent', SWIPER), String(target)),
});

describe('a swipe on an account that is absent or suspended', () => {
  it("leaves the swiper's swipe list, passes and feed as they were, whatever the swipe would have replaced", async () => {
    // The swiper liked the account before its suspension, and had it in its feed.
    await redis.hset(keys.swipes('agent', SWIPER), String(SUSPENDED), 'like');
    await redis.zadd(keys.feed('agent', SWIPER), 420, String(SUSPENDED));
    const before = await own(SUSPENDED);
    for (const kind of ['pass', 'like', 'super_like'] as const) {
      expect(await swipes.record('agent', SWIPER, SUSPENDED, kind, new Date())).toEqual({ status: 'not_found' });
      expect(await own(SUSPENDED)).toEqual(before);
    }
    // A pass before: its time stays.
    await redis.hset(keys.swipes('agent', SWIPER), String(SUSPENDED), 'pass');
    await redis.zadd(keys.passes('agent', SWIPER), 1_700_000_000_123, String(SUSPENDED));
    const passed = await own(SUSPENDED);
    for (const kind of ['like', 'pass'] as const) {
      expect(await swipes.record('agent', SWIPER, SUSPENDED, kind, new Date())).toEqual({ status: 'not_found' });
      expect(await own(SUSPENDED)).toEqual(passed);
    }
  });

  it('writes nothing of a swipe on an id nobody holds but its count', async () => {
    for (const kind of ['pass', 'like'] as const) {
      expect(await swipes.record('agent', SWIPER, ABSENT, kind, new Date())).toEqual({ status: 'not_found' });
      expect(await own(ABSENT)).toEqual({ kind: null, passedAt: null, feedScore: null });
    }
    expect(Number(await redis.get(keys.accountRateLimit('like', 'agent', SWIPER)))).toBeGreaterThanOrEqual(2);
  });
});
