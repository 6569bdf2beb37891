import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { bearerAuthenticator } from './http/bearer.js';
import { Metrics } from './http/metrics.js';
import { accountRoutes } from './http/routes/account-routes.js';
import { operationRoutes } from './http/routes/operation-routes.js';
import { HttpServer } from './http/server.js';
import type { Route } from './http/types.js';
import { AccountService } from './services/account-service.js';
import { nullEventPublisher, type EventPublisher } from './services/events.js';
import { resolveTokenSecret, TokenService } from './services/token-service.js';
import { PubSub } from './store/pubsub.js';
import { RateLimiter } from './store/rate-limiter.js';
import { createBlockingRedis, createRedis } from './store/redis.js';
import { Scripts } from './store/scripts.js';
import { UserRepository } from './store/user-repository.js';

export type AppOptions = { config: Config; redisUrl: string; logger: Logger };

/** The composition root: builds every piece, wires them, and owns their start and stop. */
export class Application {
  readonly redis: Redis;
  private readonly subscriber: Redis;
  readonly metrics = new Metrics();
  readonly scripts: Scripts;
  readonly pubsub: PubSub;
  http!: HttpServer;
  tokens!: TokenService;
  accounts!: AccountService;
  users!: UserRepository;
  rateLimiter!: RateLimiter;
  /** Where domain events go (streams + live fan-out once realtime is wired). */
  events: EventPublisher = nullEventPublisher;
  port = 0;
  private stopping?: Promise<void>;

  constructor(private readonly options: AppOptions) {
    this.redis = createRedis(options.redisUrl);
    this.subscriber = createBlockingRedis(options.redisUrl);
    for (const client of [this.redis, this.subscriber]) {
      client.on('error', (error: Error) => options.logger.debug({ err: error.message }, 'redis connection error'));
    }
    this.scripts = new Scripts(this.redis);
    this.pubsub = new PubSub(this.redis, this.subscriber);
  }

  get config() {
    return this.options.config;
  }

  get logger() {
    return this.options.logger;
  }

  async start(): Promise<this> {
    const { config, logger } = this.options;
    await Promise.all([this.redis.connect(), this.subscriber.connect()]);
    const { secret, generated } = await resolveTokenSecret(this.redis, config.TOKEN_SECRET);
    if (generated) {
      logger.warn('TOKEN_SECRET is not set: using a generated secret kept in Redis and shared by every process; set TOKEN_SECRET in production.');
    }
    this.tokens = new TokenService(this.redis, secret, config.TOKEN_TTL_SECONDS);
    await this.tokens.start(this.pubsub);
    this.users = new UserRepository(this.redis, this.scripts);
    this.rateLimiter = new RateLimiter(this.scripts);
    this.accounts = new AccountService(this.users, this.tokens, this.pubsub);
    // -- services of each feature are built here --

    this.http = new HttpServer({
      logger,
      metrics: this.metrics,
      authenticate: bearerAuthenticator(this.tokens),
      trustProxy: config.TRUST_PROXY,
    });
    const routes: Route[] = [
      ...operationRoutes({ redis: this.redis, metrics: this.metrics, routes: () => this.http.routes }),
      ...accountRoutes({ accounts: this.accounts, rateLimiter: this.rateLimiter, config }),
      // -- routes of each feature are added here --
    ];
    for (const route of routes) this.http.route(route);
    // -- WebSocket routes are registered here, before the fallbacks --
    this.http.seal();
    this.port = await this.http.listen(config.HOST, config.PORT);
    logger.info({ port: this.port }, `listening on http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${this.port}`);
    return this;
  }

  /** Graceful stop: no new connections, in-flight requests finish, then Redis closes. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.http?.drain(this.options.config.SHUTDOWN_GRACE_MS);
      this.http?.close();
      this.tokens?.stop();
      await Promise.allSettled([this.redis.quit(), this.subscriber.quit()]);
      this.redis.disconnect();
      this.subscriber.disconnect();
    })();
    return this.stopping;
  }
}
