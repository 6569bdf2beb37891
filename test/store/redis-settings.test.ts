import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { keys } from '../../src/platform/redis/keys.js';
import { INDEX_SET_INTSET_ENTRIES, memorySettingsAdvice } from '../../src/platform/redis-server/redis-settings.js';
import { startStore } from '../support/stack.js';

let store: Awaited<ReturnType<typeof startStore>>;
let redis: RedisClient;
beforeAll(async () => {
  store = await startStore();
  redis = store.redis;
});
afterAll(() => store?.cleanup());

const masters = () => (redis instanceof Cluster ? redis.nodes('master') : [redis]);

describe('the Redis settings the index is laid out for', () => {
  it('are given to the servers the service starts, and a Redis without them gets one line of advice', async () => {
    expect(await memorySettingsAdvice(redis)).toBeUndefined();
    const [first] = masters();
    await first!.config('SET', 'set-max-intset-entries', '512');
    try {
      const advice = await memorySettingsAdvice(redis);
      expect(advice).toContain('up to 512 members');
      expect(advice).toContain(`CONFIG SET set-max-intset-entries ${INDEX_SET_INTSET_ENTRIES}`);
      expect(advice).not.toContain('\n');
    } finally {
      await first!.config('SET', 'set-max-intset-entries', String(INDEX_SET_INTSET_ENTRIES));
    }
  });

  it('keep an index set of a few thousand account ids compact', async () => {
    const ids = Array.from({ length: INDEX_SET_INTSET_ENTRIES }, (_, i) => 100_000 + i * 24);
    const key = keys.interestIndex('agent', 0, 'compact');
    await redis.sadd(key, ...ids);
    expect(await redis.object('ENCODING', key)).toBe('intset');
  });
});
