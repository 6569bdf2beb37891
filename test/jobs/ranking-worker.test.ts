import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountReadsRepository } from '../../src/features/accounts/account-reads-repository.js';
import { RankingJobs } from '../../src/features/discovery/ranking-jobs.js';
import { createLogger } from '../../src/platform/logger.js';
import { DiscoveryIndexer } from '../../src/features/discovery/discovery-indexer.js';
import { FeedRanker } from '../../src/features/discovery/feed-ranker.js';
import { DiscoveryIndexRepository } from '../../src/features/discovery/discovery-index-repository.js';
import { FeedRepository } from '../../src/features/discovery/feed-repository.js';
import { keys } from '../../src/platform/redis/keys.js';
import { ALL_PARTITIONS, indexPartition } from '../../src/platform/redis/key-space.js';
import { queueConnections } from '../../src/platform/redis/redis.js';
import { registerAgent } from '../support/accounts.js';
import { killChildren, spawnTsx } from '../support/child-process.js';
import { startApp, startTestRedis } from '../support/stack.js';
import { eventually } from '../support/eventually.js';

// A server that only queues ranking jobs: every worker in this file is started by the test itself.
let redis: Awaited<ReturnType<typeof startTestRedis>>;
let server: Awaited<ReturnType<typeof startApp>>;
beforeAll(async () => {
  redis = await startTestRedis();
  server = await startApp(redis, { EMBEDDED_WORKER: false });
});
afterAll(async () => {
  await server?.stop();
  await redis?.cleanup();
});

afterEach(killChildren);

const rankedCount = async () => {
  let total = 0;
  for (const part of ALL_PARTITIONS) total += await server.app.redis.zcard(keys.rankedFeeds('agent', part));
  return total;
};
const isRanked = (id: number) => server.app.redis.zscore(keys.rankedFeeds('agent', indexPartition(id)), String(id)).then((s) => s !== null);

describe('ranking jobs', () => {
  it('are queued by registration and run by `npm run worker`, which stops gracefully on SIGTERM', async () => {
    const a = await registerAgent(server.api, { interests: 'tango' });
    const b = await registerAgent(server.api, { interests: 'tango' });
    // This server runs no worker: the jobs wait in the queue until one starts.
    expect(await isRanked(a.user_id)).toBe(false);
    expect(await server.app.rankingJobs!.queue.queue.getWaitingCount()).toBeGreaterThanOrEqual(2);

    const worker = spawnTsx(['src/main.ts', 'worker'], redis.env);
    // A process starting under tsx on a busy machine: its own word that it runs, then the jobs it picks up.
    await worker.waitFor(/ranking worker started/);
    await eventually('the worker to rank both feeds', async () => (await isRanked(a.user_id)) && (await isRanked(b.user_id)), 30_000);
    expect(await server.app.redis.zrange(keys.feed('agent', a.user_id), '0', '-1')).toEqual([String(b.user_id)]);
    expect(await server.app.redis.zrange(keys.feed('agent', b.user_id), '0', '-1')).toEqual([String(a.user_id)]);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toMatch(/stopped/);
  }, 120_000);

  it('`npm run worker` without REDIS_URL says so in one line and exits non-zero', async () => {
    const worker = spawnTsx(['src/main.ts', 'worker'], { REDIS_URL: '' });
    expect(await worker.exited).toBe(1);
    expect(
      worker
        .output()
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('npm warn')),
    ).toEqual([expect.stringMatching(/REDIS_URL/)]);
  });

  it('a worker killed mid-job leaves no account without a ranked feed once a worker runs again', async () => {
    const app = server.app;
    const index = new DiscoveryIndexRepository(app.redis, app.scripts, new AccountReadsRepository(app.redis, app.scripts));
    const feeds = new FeedRepository(app.redis, app.scripts);
    const indexer = new DiscoveryIndexer(app.rankingJobs!.queue, app.logger);
    // Seeded straight through the store and the indexer (registration would be rate limited and slow).
    const total = 400;
    const ids: number[] = [];
    for (let batch = 0; batch < total; batch += 100) {
      const created = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const user = await app.users.create({
            pool: 'agent',
            email: `seed-${batch + i}-${Date.now()}@example.com`,
            passwordHash: 'seeded',
            displayName: `Seed ${batch + i}`,
            birthdate: '1990-01-01',
            gender: 'woman',
            bio: '',
            interests: ['common', `group-${(batch + i) % 7}`],
            city: '',
            state: '',
            themeId: 1,
          });
          await indexer.profileSaved(user!);
          return user!.id;
        }),
      );
      ids.push(...created);
    }
    const before = await rankedCount();

    const first = spawnTsx(['test/support/ranking-worker-child.ts'], redis.env);
    // It starts under tsx first: on a busy machine that alone can take seconds.
    await eventually('the first worker to have ranked some', async () => (await rankedCount()) >= before + 20, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const queue = app.rankingJobs!.queue.queue;
    expect(await queue.getActiveCount(), 'jobs held by the killed worker').toBeGreaterThan(0);
    expect(await rankedCount()).toBeLessThan(before + total);

    const second = await RankingJobs.start({
      connections: queueConnections(redis.topology),
      ranker: new FeedRanker(index, feeds),
      logger: createLogger('silent'),
      worker: { concurrency: 4, lockDurationMs: 1_000, stalledIntervalMs: 300 },
    });
    try {
      await eventually(
        'every feed ranked and the queue drained',
        async () => {
          const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'failed');
          return (await feeds.unranked('agent')).length === 0 && (counts.active ?? 0) + (counts.waiting ?? 0) + (counts.delayed ?? 0) === 0 && counts;
          // 400 rankings: a few seconds on an idle machine, several times that on a busy one.
        },
        90_000,
      );
      expect((await queue.getJobCounts('failed')).failed).toBe(0);
      const sizes = await Promise.all(ids.map((id) => app.redis.zcard(keys.feed('agent', id))));
      expect(sizes.every((size) => size === 100)).toBe(true);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
