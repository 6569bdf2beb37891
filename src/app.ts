import type { Config } from './config.js';
import type { RedisTopology } from './platform/redis/redis-topology.js';
import type { Logger } from './platform/logger.js';
import type { HttpServer } from './platform/http/server.js';
import { EventLoopDelay } from './platform/metrics/event-loop-delay.js';
import { Metrics } from './platform/metrics/metrics.js';
import { REDIS_CLOSE_TIMEOUT_MS } from './platform/redis/bounded-close.js';
import type { PubSub } from './platform/redis/pubsub.js';
import type { RedisClient } from './platform/redis/redis.js';
import type { Scripts } from './platform/redis/scripts.js';
import type { SocketLeases } from './repositories.js';
import { apiServer } from './app/api-server.js';
import { ServerFeatures } from './app/features.js';
import { RedisConnections } from './app/redis-connections.js';

/** `redis`: the topology to connect to (one standalone Redis, or a Redis Cluster's seed nodes). */
export type AppOptions = { config: Config; redis: RedisTopology; logger: Logger };

/**
 * The server's composition root: its Redis connections (app/redis-connections.ts), every feature wired over
 * them (app/features.ts) and the HTTP and WebSocket server of their routes (app/api-server.ts); it owns their
 * start and their stop.
 */
export class Application {
  readonly metrics = new Metrics();
  private readonly eventLoopDelay = new EventLoopDelay();
  private readonly connections: RedisConnections;
  readonly redis: RedisClient;
  readonly scripts: Scripts;
  readonly pubsub: PubSub;
  /** Every feature's services and the repositories they share, built by start(). */
  readonly features: ServerFeatures;
  http!: HttpServer;
  port = 0;
  /** Open `/api/v1/ws` sockets per account across processes. */
  private socketLeases?: SocketLeases;
  private stopping?: Promise<void>;

  constructor(private readonly options: AppOptions) {
    this.connections = new RedisConnections(options.redis, options.config, options.logger, this.metrics);
    ({ redis: this.redis, scripts: this.scripts, pubsub: this.pubsub } = this.connections);
    this.features = new ServerFeatures(this.connections, options.config, options.logger, this.metrics);
  }

  get config() {
    return this.options.config;
  }

  get logger() {
    return this.options.logger;
  }

  // Shortcuts to the features' parts (see ServerFeatures).
  get accounts() {
    return this.features.accounts;
  }

  get tokens() {
    return this.features.tokens;
  }

  get users() {
    return this.features.users;
  }

  get realtime() {
    return this.features.realtime;
  }

  get swipes() {
    return this.features.swipes;
  }

  get swipeService() {
    return this.features.swipeService;
  }

  get matches() {
    return this.features.matches;
  }

  get matchService() {
    return this.features.matchService;
  }

  get messages() {
    return this.features.messages;
  }

  get messageService() {
    return this.features.messageService;
  }

  get outbox() {
    return this.features.outbox;
  }

  get leaving() {
    return this.features.leaving;
  }

  get rankingJobs() {
    return this.features.rankingJobs;
  }

  get webhookJobs() {
    return this.features.webhookJobs;
  }

  async start(): Promise<this> {
    const { config, logger } = this.options;
    this.metrics.gauge('nodejs_eventloop_delay_p99_ms', this.eventLoopDelay.start().readP99Ms);
    await this.connections.connect();
    await this.features.start();
    ({ http: this.http, socketLeases: this.socketLeases } = apiServer(this.features, this.connections, config, logger, this.metrics));
    this.port = await this.http.listen(config.HOST, config.PORT);
    logger.info({ port: this.port }, `listening on http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${this.port}`);
    return this;
  }

  /**
   * Graceful stop: no new connections, in-flight requests finish (for up to the grace period), then
   * Redis closes, for up to REDIS_CLOSE_TIMEOUT_MS (Redis may be unreachable); then its connections are cut.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const { realtime, tokens } = this.features;
      // Held inbox reads answer now (with what their streams hold), rather than keep the drain waiting.
      realtime?.inbox?.stop();
      await this.http?.drain(this.options.config.SHUTDOWN_GRACE_MS);
      const closeBy = Date.now() + REDIS_CLOSE_TIMEOUT_MS;
      await this.features.stopWork(closeBy);
      realtime?.stop();
      this.http?.close();
      tokens?.stop();
      this.socketLeases?.stop();
      this.eventLoopDelay.stop();
      await this.connections.quit(closeBy);
      this.features.disconnectQueues();
      this.connections.disconnect();
    })();
    return this.stopping;
  }
}
