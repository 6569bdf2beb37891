import keySlot from 'cluster-key-slot';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RANKING_QUEUE } from '../../src/features/discovery/ranking-queue.js';
import { keys } from '../../src/platform/redis/keys.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { registerAgent } from '../support/accounts.js';
import { eventually } from '../support/eventually.js';
import { startStack } from '../support/stack.js';
import { scanKeys } from '../support/scan-keys.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

it('keeps every key of the ranking queue in one hash slot, as BullMQ needs on Redis Cluster', async () => {
  const agent = await registerAgent(stack.api);
  await eventually(
    'the agent feed is ranked by the worker',
    async () => (await stack.app.redis.zscore(keys.rankedFeeds('agent', indexPartition(agent.user_id)), String(agent.user_id))) !== null,
  );
  const queueKeys = await scanKeys(stack.app.redis, `*${RANKING_QUEUE}*`);
  expect(queueKeys.length).toBeGreaterThan(1);
  expect(new Set(queueKeys.map((key) => keySlot(key))).size, queueKeys.join(', ')).toBe(1);
});
