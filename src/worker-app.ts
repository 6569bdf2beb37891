import type { Config } from './config.js';
import { createLogger } from './logger.js';
import { RankingJobs } from './jobs/ranking-jobs.js';
import { FeedRanker } from './services/feed-ranker.js';
import { DiscoveryIndex } from './store/discovery-index.js';
import { FeedStore } from './store/feed-store.js';
import { createRedis, queueConnections } from './store/redis.js';
import { Scripts } from './store/scripts.js';
import { UserRepository } from './store/user-repository.js';

/** The composition of `npm run worker`: a ranking worker only, against the server's Redis, until SIGTERM or SIGINT. */
export async function runWorker(config: Config): Promise<void> {
  if (!config.REDIS_URL) {
    console.error('npm run worker needs REDIS_URL, the Redis the server uses (e.g. REDIS_URL=redis://127.0.0.1:6379 npm run worker).');
    process.exit(1);
  }
  const logger = createLogger(config.LOG_LEVEL);
  const redis = createRedis(config.REDIS_URL, {}, config.REDIS_TIMEOUT_MS);
  redis.on('error', (error: Error) => logger.debug({ err: error.message }, 'redis connection error'));
  let jobs: RankingJobs;
  try {
    await redis.connect();
    const scripts = new Scripts(redis);
    const ranker = new FeedRanker(new DiscoveryIndex(redis, scripts), new FeedStore(redis, scripts), new UserRepository(redis, scripts));
    jobs = await RankingJobs.start({ connections: queueConnections(config.REDIS_URL, config.REDIS_TIMEOUT_MS), ranker, logger, worker: true });
  } catch (error) {
    logger.fatal({ err: error }, 'could not start the ranking worker');
    process.exit(1);
  }
  logger.info('ranking worker started');
  const shutdown = async (signal: string) => {
    logger.info(`${signal}: stopping the ranking worker`);
    await jobs.stop();
    await redis.quit().catch(() => redis.disconnect());
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
