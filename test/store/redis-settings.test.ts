import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { keys } from '../../src/platform/redis/keys.js';
import { INDEX_SET_INTSET_ENTRIES, memorySettingsAdvice, STREAM_NODE_MAX_BYTES } from '../../src/platform/redis-server/redis-settings.js';
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
      expect(advice).toContain('set-max-intset-entries is 512');
      expect(advice).toContain(`CONFIG SET set-max-intset-entries ${INDEX_SET_INTSET_ENTRIES}`);
      expect(advice).not.toContain('stream-node-max-bytes');
      expect(advice).not.toContain('\n');
      await first!.config('SET', 'stream-node-max-bytes', '4096');
      const both = await memorySettingsAdvice(redis);
      expect(both).toContain('stream-node-max-bytes is 4096');
      expect(both).toContain(`CONFIG SET set-max-intset-entries ${INDEX_SET_INTSET_ENTRIES} and CONFIG SET stream-node-max-bytes ${STREAM_NODE_MAX_BYTES}`);
    } finally {
      await first!.config('SET', 'set-max-intset-entries', String(INDEX_SET_INTSET_ENTRIES));
      await first!.config('SET', 'stream-node-max-bytes', String(STREAM_NODE_MAX_BYTES));
    }
  });

  it('keep a short thread in a node of its size: a thread of one message costs well under the 4 KB of a default node', async () => {
    const thread = keys.thread('agent', 1);
    await redis.xadd(thread, '1-1', 's', 7, 'b', 'x'.repeat(120), 'i', '', 'a', 1, 'z', 0);
    // 4.7 KB in a node of Redis's default size.
    expect(await redis.memory('USAGE', thread)).toBeLessThan(2_000);
  });

  it('keep an index set of a few thousand account ids compact', async () => {
    const ids = Array.from({ length: INDEX_SET_INTSET_ENTRIES }, (_, i) => 100_000 + i * 24);
    const key = keys.interestIndex('agent', 0, 'compact');
    await redis.sadd(key, ...ids);
    expect(await redis.object('ENCODING', key)).toBe('intset');
  });
});
