import type { Config } from './config.js';
import type { Logger } from './platform/logger.js';
import type { RedisTopology } from './platform/redis/redis-topology.js';
import { createRedis, queueConnections, type RedisClient } from './platform/redis/redis.js';
import { assertSupportedRedis } from './platform/redis-server/redis-requirements-check.js';
import { Scripts } from './platform/redis/scripts.js';
import { FeedRanker, RankingJobs } from './features/discovery/index.js';
import { FrameBuilders } from './features/events/index.js';
import { registerMatchFrames } from './features/matches/index.js';
import {
  accountFiling,
  AccountReadsRepository,
  DiscoveryIndexRepository,
  EventStreamRepository,
  FeedRepository,
  MessageRepository,
  SuspensionRepository,
  UserRepository,
  WebhookRepository,
} from './repositories.js';
import { WebhookChains, WebhookDeliverer, WebhookJobs, webhookRetry, webhookSender, webhookWorkerOptions } from './features/webhooks/index.js';

/** The worker process's composition (`npm run worker`): ranking and webhook delivery against the server's Redis; stop() closes it gracefully. */
export async function startWorkers(config: Config, topology: RedisTopology, logger: Logger): Promise<{ stop: () => Promise<void> }> {
  const redis = createRedis(topology, {}, config.REDIS_TIMEOUT_MS, config.REDIS_FAILOVER_MS);
  redis.on('error', (error: Error) => logger.debug({ err: error.message }, 'redis connection error'));
  try {
    await redis.connect();
    await assertSupportedRedis(redis, topology);
    const scripts = new Scripts(redis);
    const ranker = new FeedRanker(new DiscoveryIndexRepository(redis, scripts, new AccountReadsRepository(redis, scripts)), new FeedRepository(redis, scripts));
    const jobs = await RankingJobs.start({
      connections: queueConnections(topology, config.REDIS_TIMEOUT_MS, config.REDIS_FAILOVER_MS),
      ranker,
      logger,
      worker: true,
    });
    const hooks = await startWebhookWorker(config, topology, redis, scripts, logger);
    return {
      stop: async () => {
        await jobs.stop();
        await hooks.stop();
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}

/** A webhook delivery worker on `redis` (the worker process's client); stop() finishes the deliveries in hand. */
async function startWebhookWorker(
  config: Config,
  topology: RedisTopology,
  redis: RedisClient,
  scripts: Scripts,
  logger: Logger,
): Promise<{ stop: () => Promise<void> }> {
  const store = new WebhookRepository(redis, scripts);
  const retry = webhookRetry(config);
  const jobs = await WebhookJobs.open({ connections: queueConnections(topology, config.REDIS_TIMEOUT_MS, config.REDIS_FAILOVER_MS), retry, logger });
  const sender = webhookSender(config);
  // Webhooks send accounts' events with their frames as the server builds them.
  const frames = registerMatchFrames(new FrameBuilders(), {
    messages: new MessageRepository(redis, scripts),
    users: new UserRepository(redis, scripts, accountFiling),
    suspensions: new SuspensionRepository(redis, scripts, accountFiling),
  });
  const streams = new EventStreamRepository(redis, scripts, frames);
  const chains = new WebhookChains(store, jobs.queue, streams);
  const deliverer = new WebhookDeliverer(store, chains, streams, sender, retry, () => {}, logger);
  await jobs.startWorker(deliverer, webhookWorkerOptions(config));
  return {
    stop: async () => {
      await jobs.stop();
      sender.close();
    },
  };
}
