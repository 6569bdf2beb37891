import type { Config } from '../config.js';
import type { Logger } from '../platform/logger.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import { assertCurrentKeyLayout } from '../platform/redis-server/key-layout-check.js';
import { assertSupportedRedis } from '../platform/redis-server/redis-requirements-check.js';
import { memorySettingsAdvice } from '../platform/redis-server/redis-settings.js';
import { settleBy } from '../platform/redis/bounded-close.js';
import { createHotConnection, type HotConnection } from '../platform/redis/hot-connection.js';
import { PubSub } from '../platform/redis/pubsub.js';
import { createRedis, createSubscriberRedis, queueConnections, type RedisClient } from '../platform/redis/redis.js';
import type { RedisTopology } from '../platform/redis/redis-topology.js';
import { replicaLagReader } from '../platform/redis/replica-lag.js';
import { LUA_DIRS, Scripts } from '../platform/redis/scripts.js';

/**
 * The server's Redis connections: the main client, the subscriber of pub/sub, and the hot connection of the
 * request path's busiest scripts (see ScriptConnection), with the script runner and pub/sub over them.
 */
export class RedisConnections {
  readonly redis: RedisClient;
  readonly subscriber: RedisClient;
  private readonly hot: HotConnection;
  readonly scripts: Scripts;
  readonly pubsub: PubSub;

  constructor(
    private readonly topology: RedisTopology,
    private readonly config: Config,
    private readonly logger: Logger,
    metrics: Metrics,
  ) {
    const { REDIS_TIMEOUT_MS, REDIS_FAILOVER_MS } = config;
    this.redis = createRedis(topology, {}, REDIS_TIMEOUT_MS, REDIS_FAILOVER_MS);
    this.subscriber = createSubscriberRedis(topology, REDIS_FAILOVER_MS);
    for (const client of [this.redis, this.subscriber]) {
      client.on('error', (error: Error) => logger.debug({ err: error.message }, 'redis connection error'));
    }
    this.hot = createHotConnection(topology, REDIS_TIMEOUT_MS, REDIS_FAILOVER_MS);
    this.scripts = new Scripts(this.redis, this.hot, LUA_DIRS, {
      replicas: config.REDIS_MIN_REPLICAS_ACK,
      timeoutMs: config.REDIS_REPLICA_ACK_TIMEOUT_MS,
      onBehind: metrics.count(
        'redis_replica_ack_timeouts_total',
        'Writes answered 503 because fewer replicas than REDIS_MIN_REPLICAS_ACK confirmed them in time.',
      ),
    });
    this.pubsub = new PubSub(this.redis, this.subscriber);
    const replicaLag = replicaLagReader(this.redis);
    metrics.gauge('redis_replicas_online', async () => (await replicaLag()).replicas, 'The fewest replicas online that any Redis master has.');
    metrics.gauge(
      'redis_replica_lag_bytes',
      async () => (await replicaLag()).behindBytes,
      'The most bytes of writes any online replica has yet to confirm (-1: Redis did not answer).',
    );
  }

  /** Connects, and refuses a Redis that cannot serve (too old, or holding another key layout). */
  async connect() {
    await Promise.all([this.redis.connect(), this.subscriber.connect()]);
    await assertSupportedRedis(this.redis, this.topology);
    await assertCurrentKeyLayout(this.redis, this.topology);
    // After the checks, so that a Redis that cannot serve (a cluster node given as REDIS_URL, a cluster not ok) is refused in its one line.
    await this.hot.connect();
    const advice = await memorySettingsAdvice(this.redis);
    if (advice) this.logger.warn(advice);
  }

  /** The connections a BullMQ queue opens for itself (see OwnedConnections). */
  forQueue() {
    return queueConnections(this.topology, this.config.REDIS_TIMEOUT_MS, this.config.REDIS_FAILOVER_MS);
  }

  /** Closes every connection, waiting until `closeBy` at most (Redis may be unreachable). */
  quit(closeBy: number): Promise<void> {
    return settleBy(closeBy, Promise.allSettled([this.redis.quit(), this.subscriber.quit(), this.hot.quit()]));
  }

  /** Cuts what `quit` left open. */
  disconnect() {
    for (const connection of [this.redis, this.subscriber, this.hot]) connection.disconnect();
  }
}
