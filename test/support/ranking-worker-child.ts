/**
 * A real ranking worker in a process of its own, with a short job lock so that a test can kill it
 * mid-job and see another worker take its jobs over quickly. Prints "ready" once it takes jobs.
 */
import { RankingJobs } from '../../src/jobs/ranking-jobs.js';
import { createLogger } from '../../src/logger.js';
import { FeedRanker } from '../../src/services/feed-ranker.js';
import { DiscoveryIndex } from '../../src/store/discovery-index.js';
import { FeedStore } from '../../src/store/feed-store.js';
import { createRedis, queueConnections } from '../../src/store/redis.js';
import { Scripts } from '../../src/store/scripts.js';
import { UserRepository } from '../../src/store/user-repository.js';

const url = process.env.REDIS_URL!;
const redis = createRedis(url);
await redis.connect();
const scripts = new Scripts(redis);
const ranker = new FeedRanker(new DiscoveryIndex(redis, scripts), new FeedStore(redis, scripts), new UserRepository(redis, scripts));
await RankingJobs.start({
  connections: queueConnections(url),
  ranker,
  logger: createLogger('silent'),
  worker: { concurrency: 4, lockDurationMs: 1_000, stalledIntervalMs: 500, reconcile: false },
});
console.log('ready');
