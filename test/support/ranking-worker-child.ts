/**
 * A real ranking worker in a process of its own, with a short job lock so that a test can kill it
 * mid-job and see another worker take its jobs over quickly. Prints "ready" once it takes jobs.
 */
import { RankingJobs } from '../../src/features/discovery/ranking-jobs.js';
import { AccountReadsRepository } from '../../src/features/accounts/account-reads-repository.js';
import { createLogger } from '../../src/platform/logger.js';
import { FeedRanker } from '../../src/features/discovery/feed-ranker.js';
import { DiscoveryIndexRepository } from '../../src/features/discovery/discovery-index-repository.js';
import { FeedRepository } from '../../src/features/discovery/feed-repository.js';
import type { RedisTopology } from '../../src/platform/redis/redis-topology.js';
import { createRedis, queueConnections } from '../../src/platform/redis/redis.js';
import { Scripts } from '../../src/platform/redis/scripts.js';

const nodes = process.env.REDIS_CLUSTER_NODES;
const topology: RedisTopology = nodes ? { kind: 'cluster', nodes: nodes.split(',') } : { kind: 'single', url: process.env.REDIS_URL! };
const redis = createRedis(topology);
await redis.connect();
const scripts = new Scripts(redis);
const ranker = new FeedRanker(new DiscoveryIndexRepository(redis, scripts, new AccountReadsRepository(redis, scripts)), new FeedRepository(redis, scripts));
await RankingJobs.start({
  connections: queueConnections(topology),
  ranker,
  logger: createLogger('silent'),
  worker: { concurrency: 4, lockDurationMs: 1_000, stalledIntervalMs: 500, reconcile: false },
});
console.log('ready');
