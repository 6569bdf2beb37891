import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import type { RedisTopology } from './platform/redis/redis-topology.js';
import type { Logger } from './platform/logger.js';
import { bearerAuthenticator } from './platform/http/bearer.js';
import { EventLoopDelay } from './platform/metrics/event-loop-delay.js';
import { Metrics } from './platform/metrics/metrics.js';
import { AccountService, resolveTokenSecret, TokenService } from './features/accounts/index.js';
import { SwipeService } from './features/swipes/index.js';
import { type Known, MatchEventSteps, MatchListing, MatchService, MessageService, ReadService, registerMatchFrames } from './features/matches/index.js';
import { ErasureSweeper, LeaveService } from './features/leaving/index.js';
import { adminApi, ReportService, SuspensionService } from './features/moderation/index.js';
import { BlockService } from './features/blocks/index.js';
import { HttpServer } from './platform/http/server.js';
import { publicApiRoutes, type PublicApiServices } from './public-api.js';
import type { Route } from './platform/http/types.js';
import { AccountLimits } from './platform/limits/account-limits.js';
import { AddressLimits } from './platform/limits/address-limits.js';
import { accountLimitPolicy, addressLimitPolicy } from './platform/limits/limit-policies.js';
import { EventAppender, EventReplay, FrameBuilders, LiveEvents, Realtime } from './features/events/index.js';
import { OutboxRunner } from './platform/outbox/outbox-runner.js';
import { OutboxSweeper } from './platform/outbox/outbox-sweeper.js';
import { UpgradeLimits } from './platform/limits/upgrade-limits.js';
import { DAY_MS } from './platform/core/dates.js';
import { assertCurrentKeyLayout } from './platform/redis-server/key-layout-check.js';
import { registerSpectatorFrames, spectatorAppends, SpectatorService } from './features/spectator/index.js';
import { PubSub } from './platform/redis/pubsub.js';
import { REDIS_CLOSE_TIMEOUT_MS, settleBy } from './platform/redis/bounded-close.js';
import { createRedis, createSubscriberRedis, queueConnections, type RedisClient } from './platform/redis/redis.js';
import { assertSupportedRedis } from './platform/redis-server/redis-requirements-check.js';
import { memorySettingsAdvice } from './platform/redis-server/redis-settings.js';
import { replicaLagReader } from './platform/redis/replica-lag.js';
import { LUA_DIRS, Scripts } from './platform/redis/scripts.js';
import { createHotConnection, type HotConnection } from './platform/redis/hot-connection.js';
import { DiscoveryIndexer, DiscoveryService, FeedRanker, RankingJobs, SwipeSignals } from './features/discovery/index.js';
import {
  WebhookChains,
  WebhookDeliverer,
  webhookDestinations,
  WebhookJobs,
  WebhookPings,
  webhookRetry,
  type WebhookSender,
  webhookSender,
  WebhookService,
  webhookWorkerOptions,
} from './features/webhooks/index.js';
import {
  accountFiling,
  AccountReadsRepository,
  BlockRepository,
  DiscoveryIndexRepository,
  ErasureRepository,
  EventStreamRepository,
  FeedRepository,
  HiddenAccountsRepository,
  LeavingRepository,
  MatchListRepository,
  MatchRepository,
  MessageRepository,
  OutboxRepository,
  RateLimiter,
  ReadStateRepository,
  ReportRepository,
  SocketLeases,
  SpectatorTallyRepository,
  SuspensionRepository,
  SwipeRepository,
  TokenRepository,
  UserRepository,
  WATCHERS_REFRESH_MS,
  WebhookRepository,
} from './repositories.js';

/** `redis`: the topology to connect to (one standalone Redis, or a Redis Cluster's seed nodes). */
export type AppOptions = { config: Config; redis: RedisTopology; logger: Logger };

/** The composition root: builds every piece, wires them, and owns their start and stop. */
export class Application {
  readonly redis: RedisClient;
  private readonly subscriber: RedisClient;
  /** The hot connection of the request path's busiest scripts; see ScriptConnection. */
  private readonly scriptConnection: HotConnection;
  readonly metrics = new Metrics();
  private readonly eventLoopDelay = new EventLoopDelay();
  readonly scripts: Scripts;
  readonly pubsub: PubSub;
  http!: HttpServer;
  tokens!: TokenService;
  accounts!: AccountService;
  users!: UserRepository;
  /** Accounts suspended by operators (hidden, refused) until lifted. */
  suspensions!: SuspensionRepository;
  rateLimiter!: RateLimiter;
  /** Event streams, the live relay and the WebSocket endpoints. */
  realtime!: Realtime;
  /** The public, synthetic view of agent matches behind /spectator. */
  spectator!: SpectatorService;
  private watcherReports?: NodeJS.Timeout;
  /** The swipe graph, matches and their conversations. */
  swipes!: SwipeRepository;
  matches!: MatchRepository;
  messages!: MessageRepository;
  /** Appends the events that writes commit to the outbox; its sweeper repairs a crash between the two. */
  outbox!: OutboxRunner<Known>;
  /** Appends the entries of the outbox steps of events; webhooks follow what it appends to accounts' streams. */
  private eventAppender!: EventAppender;
  /** How stream entries kept by reference are read back as frames (matches and spectator register theirs). */
  private readonly frames = new FrameBuilders();
  private outboxSweeper?: OutboxSweeper;
  /** Leaving: an account's erasure (DELETE /api/v1/me); its sweeper finishes one a crash interrupted. */
  leaving!: LeaveService;
  private leavingAccounts!: LeavingRepository;
  private erasureSweeper?: ErasureSweeper;
  swipeService!: SwipeService;
  matchService!: MatchService;
  messageService!: MessageService;
  readService!: ReadService;
  /** Discovery: feed and browse reads, and the ranking queue (plus a worker when EMBEDDED_WORKER). */
  discovery!: DiscoveryService;
  /** What discovery learns from each swipe (the swiper's taste, a liker's lift). */
  private swipeSignals?: SwipeSignals;
  rankingJobs?: RankingJobs;
  /** Webhooks: their CRUD, the delivery queue (plus a worker when EMBEDDED_WORKER). */
  webhooks!: WebhookService;
  webhookJobs?: WebhookJobs;
  private webhookSender?: WebhookSender;
  /** Test pings go out from this process, over a sender of their own (see WebhookPings). */
  private pingSender?: WebhookSender;
  private webhookPings?: WebhookPings;
  port = 0;
  private stopping?: Promise<void>;
  /** Open `/api/v1/ws` sockets per account across processes. */
  private socketLeases?: SocketLeases;

  constructor(private readonly options: AppOptions) {
    const { REDIS_TIMEOUT_MS, REDIS_FAILOVER_MS } = options.config;
    this.redis = createRedis(options.redis, {}, REDIS_TIMEOUT_MS, REDIS_FAILOVER_MS);
    this.subscriber = createSubscriberRedis(options.redis, REDIS_FAILOVER_MS);
    for (const client of [this.redis, this.subscriber]) {
      client.on('error', (error: Error) => options.logger.debug({ err: error.message }, 'redis connection error'));
    }
    this.scriptConnection = createHotConnection(options.redis, REDIS_TIMEOUT_MS, REDIS_FAILOVER_MS);
    this.scripts = new Scripts(this.redis, this.scriptConnection, LUA_DIRS, {
      replicas: options.config.REDIS_MIN_REPLICAS_ACK,
      timeoutMs: options.config.REDIS_REPLICA_ACK_TIMEOUT_MS,
      onBehind: this.metrics.count(
        'redis_replica_ack_timeouts_total',
        'Writes answered 503 because fewer replicas than REDIS_MIN_REPLICAS_ACK confirmed them in time.',
      ),
    });
    this.pubsub = new PubSub(this.redis, this.subscriber);
  }

  get config() {
    return this.options.config;
  }

  get logger() {
    return this.options.logger;
  }

  async start(): Promise<this> {
    this.metrics.gauge('nodejs_eventloop_delay_p99_ms', this.eventLoopDelay.start().readP99Ms);
    const replicaLag = replicaLagReader(this.redis);
    this.metrics.gauge('redis_replicas_online', async () => (await replicaLag()).replicas, 'The fewest replicas online that any Redis master has.');
    this.metrics.gauge(
      'redis_replica_lag_bytes',
      async () => (await replicaLag()).behindBytes,
      'The most bytes of writes any online replica has yet to confirm (-1: Redis did not answer).',
    );
    await this.connectRedis();
    await this.startAccounts();
    const discoveryIndex = await this.startDiscovery();
    const { streams, tally } = await this.startEvents();
    this.startMatches(streams);
    await this.startWebhooks(streams);
    this.outboxSweeper = new OutboxSweeper(this.outbox, this.config.EVENT_SWEEP_MS, this.logger).start();
    this.leaving = new LeaveService(this.accounts, this.leavingAccounts, this.matchService, new ErasureRepository(this.redis), this.logger);
    this.erasureSweeper = new ErasureSweeper(this.leaving, this.config.ERASURE_SWEEP_MS, this.logger).start();
    this.startSpectator(discoveryIndex, tally);
    await this.listen();
    return this;
  }

  /** Connects, and refuses a Redis that cannot serve (too old, or holding another key layout). */
  private async connectRedis() {
    await Promise.all([this.redis.connect(), this.subscriber.connect()]);
    await assertSupportedRedis(this.redis, this.options.redis);
    await assertCurrentKeyLayout(this.redis, this.options.redis);
    // After the checks, so that a Redis that cannot serve (a cluster node given as REDIS_URL, a cluster not ok) is refused in its one line.
    await this.scriptConnection.connect();
    const advice = await memorySettingsAdvice(this.redis);
    if (advice) this.logger.warn(advice);
  }

  private async startAccounts() {
    const { config, logger } = this.options;
    const tokenStore = new TokenRepository(this.redis, this.scripts);
    const { secret, generated } = await resolveTokenSecret(tokenStore, config.TOKEN_SECRET);
    if (generated) {
      logger.warn('TOKEN_SECRET is not set: using a generated secret kept in Redis and shared by every process; set TOKEN_SECRET in production.');
    }
    this.tokens = new TokenService(tokenStore, secret, config.TOKEN_TTL_SECONDS, logger, config.TOKENS_MAX_PER_ACCOUNT);
    await this.tokens.start(this.pubsub);
    this.users = new UserRepository(this.redis, this.scripts, accountFiling);
    this.suspensions = new SuspensionRepository(this.redis, this.scripts, accountFiling);
    this.rateLimiter = new RateLimiter(this.scripts);
    this.leavingAccounts = new LeavingRepository(this.redis, this.scripts, accountFiling);
    this.accounts = new AccountService(this.users, this.tokens, this.pubsub, this.leavingAccounts, this.suspensions, new HiddenAccountsRepository(this.redis));
  }

  private async startDiscovery(): Promise<DiscoveryIndexRepository> {
    const { config, logger } = this.options;
    const discoveryIndex = new DiscoveryIndexRepository(this.redis, this.scripts, new AccountReadsRepository(this.redis, this.scripts));
    const feeds = new FeedRepository(this.redis, this.scripts);
    const ranker = new FeedRanker(discoveryIndex, feeds);
    this.rankingJobs = await RankingJobs.start({
      connections: queueConnections(this.options.redis, config.REDIS_TIMEOUT_MS, config.REDIS_FAILOVER_MS),
      ranker,
      logger,
      worker: config.EMBEDDED_WORKER,
    });
    this.accounts.addListener(new DiscoveryIndexer(this.rankingJobs.queue, logger));
    this.discovery = new DiscoveryService(discoveryIndex, feeds, ranker, this.rankingJobs.queue, undefined, config.PASS_EXPIRY_DAYS * DAY_MS);
    this.swipeSignals = new SwipeSignals(feeds, logger);
    return discoveryIndex;
  }

  /** The event streams, the live relay, and the outbox that appends the events writes commit. */
  private async startEvents() {
    const { config, logger } = this.options;
    const tally = new SpectatorTallyRepository(this.redis);
    const streams = new EventStreamRepository(this.redis, this.scripts, this.frames, DAY_MS, tally.count, config.EVENT_STEP_MARK_SECONDS * 1000);
    this.realtime = new Realtime({
      replay: new EventReplay(streams),
      live: new LiveEvents(this.pubsub),
      subscriberReady: () => this.subscriber.status === 'ready',
      storeAnswers: () => this.redis.ping(),
      logger,
      inbox: { maxWaitingPerAccount: config.EVENTS_MAX_WAITING_PER_ACCOUNT },
      tokens: this.tokens,
    });
    await this.realtime.start();
    return { streams, tally };
  }

  /**
   * Swipes, matches and messages, and the outbox that completes their writes: the match lists, and the
   * events appended to their recipients' streams and, for agents, the spectators'.
   */
  private startMatches(streams: EventStreamRepository) {
    const { config, logger } = this.options;
    this.swipes = new SwipeRepository(this.redis, this.scripts, new AccountReadsRepository(this.redis, this.scripts), {
      limit: config.LIKE_RATE_LIMIT,
      windowSeconds: config.LIKE_RATE_WINDOW_SECONDS,
    });
    const threadKeptSeconds = config.REPORT_EVIDENCE_HOURS * 3_600;
    this.matches = new MatchRepository(this.redis, this.scripts, threadKeptSeconds);
    this.messages = new MessageRepository(this.redis, this.scripts, { maxMessages: config.THREAD_MAX_MESSAGES, maxAgeMs: config.THREAD_MAX_AGE_DAYS * DAY_MS });
    const deadLetters = this.metrics.counter(
      'outbox_dead_letters_total',
      'Outbox records moved to the dead letter (am:outbox:dead) by this process, by pool.',
      'pool',
    );
    this.eventAppender = new EventAppender(streams);
    this.outbox = new OutboxRunner<Known>(new OutboxRepository(this.redis), logger, { maxAttempts: config.OUTBOX_MAX_ATTEMPTS, buried: deadLetters })
      .register(new MatchListing(new MatchListRepository(this.scripts, DAY_MS, threadKeptSeconds * 1000)))
      .register(new MatchEventSteps(this.eventAppender, this.users, this.messages).addAudience(spectatorAppends));
    const sources = { messages: this.messages, users: this.users, suspensions: this.suspensions, matches: this.matches };
    registerMatchFrames(this.frames, sources);
    registerSpectatorFrames(this.frames, sources);
    this.swipeService = new SwipeService(this.swipes, this.matches, this.outbox, config.UNDO_WINDOW_SECONDS * 1000, this.swipeSignals);
    const reads = new ReadStateRepository(this.redis, this.scripts);
    this.matchService = new MatchService(this.matches, this.users, this.outbox, reads, this.suspensions);
    this.messageService = new MessageService(this.matchService, this.messages, this.outbox);
    this.readService = new ReadService(this.matchService, reads, this.outbox);
  }

  private startSpectator(discoveryIndex: DiscoveryIndexRepository, tally: SpectatorTallyRepository) {
    const figures = {
      tally,
      agentCount: async () => (await discoveryIndex.holderCounts('agent', [])).poolSize,
      processKey: randomUUID(),
      watchingHere: () => this.realtime.sockets?.spectatorCount ?? 0,
    };
    this.spectator = new SpectatorService(this.matches, this.messages, this.users, figures, this.config.SPECTATOR_CACHE_MS, this.suspensions);
    this.watcherReports = setInterval(() => void this.spectator.reportWatchers().catch(() => undefined), WATCHERS_REFRESH_MS);
    this.watcherReports.unref();
  }

  /** Every route and the WebSocket endpoints on one uWS app, then listening. */
  private async listen() {
    const { config, logger } = this.options;
    this.http = new HttpServer({
      logger,
      metrics: this.metrics,
      authenticate: bearerAuthenticator(this.tokens),
      trustProxy: config.TRUST_PROXY,
      maxConnectionsPerIp: config.MAX_CONNECTIONS_PER_IP,
    });
    const addressLimits = new AddressLimits(this.rateLimiter, addressLimitPolicy(config));
    const accountLimits = new AccountLimits(this.rateLimiter, accountLimitPolicy(config));
    const reports = this.reportService();
    const services: PublicApiServices = {
      accounts: this.accounts,
      leaving: this.leaving,
      discovery: this.discovery,
      swipes: this.swipeService,
      matches: this.matchService,
      messages: this.messageService,
      reads: this.readService,
      spectator: this.spectator,
      webhooks: this.webhooks,
      reports,
      blocks: this.blockService(),
      inbox: this.realtime.inbox!,
      addressLimits,
      accountLimits,
      metrics: this.metrics,
      storeAnswers: () => this.redis.ping(),
      publicRoutes: () => this.http.publicRoutes,
    };
    const routes: Route[] = [...publicApiRoutes(services, config), ...this.adminRoutes(reports)];
    for (const route of routes) this.http.route(route);
    // Before the fallbacks, which would otherwise answer the WebSocket paths.
    this.realtime.registerSockets(this.http, this.tokens, this.metrics, {
      upgradeLimits: new UpgradeLimits(this.rateLimiter, { limit: config.WS_UPGRADE_RATE_LIMIT, windowSeconds: config.WS_UPGRADE_RATE_WINDOW_SECONDS }),
      socketLeases: (this.socketLeases = new SocketLeases(this.redis, this.scripts, config.WS_MAX_PER_ACCOUNT).start()),
      addressLimits,
      matchUsers: async (pool, matchId) => (await this.matches.findHead(pool, matchId))?.userIds,
      policy: {
        spectatorReplayLimit: config.SPECTATOR_REPLAY_LIMIT,
        maxPerIp: config.WS_MAX_PER_IP,
        maxPerToken: config.WS_MAX_PER_TOKEN,
        trustProxy: config.TRUST_PROXY,
      },
    });
    this.http.seal();
    this.port = await this.http.listen(config.HOST, config.PORT);
    logger.info({ port: this.port }, `listening on http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${this.port}`);
  }

  /** Reports from accounts, which the operators read and close. */
  private reportService(): ReportService {
    const limits = { perPool: this.config.REPORTS_MAX_OPEN, perReporter: this.config.REPORTS_MAX_OPEN_PER_REPORTER };
    return new ReportService(
      new ReportRepository(this.redis, this.scripts, limits),
      this.users,
      this.matches,
      this.messages,
      this.suspensions,
      this.config.REPORT_EVIDENCE_HOURS,
    );
  }

  /** The operators' API over reports and suspensions: served only with ADMIN_TOKEN, its paths hidden from every request without the token. */
  private adminRoutes(reports: ReportService): Route[] {
    const suspensions = new SuspensionService(this.suspensions, this.users, this.tokens, this.pubsub);
    const admin = adminApi({ reports, suspensions, adminToken: this.config.ADMIN_TOKEN });
    if (admin) this.http.hide(admin.prefix, admin.admits);
    return admin?.routes ?? [];
  }

  /** Blocks between accounts of a pool. */
  private blockService(): BlockService {
    const max = this.options.config.BLOCKS_MAX_PER_ACCOUNT;
    return new BlockService(new BlockRepository(this.redis, this.scripts, max), this.users, this.matchService, max, this.suspensions);
  }

  /** Webhook CRUD, their delivery chains fed by the outbox steps that append events, and an embedded worker. */
  private async startWebhooks(streams: EventStreamRepository) {
    const { config, logger } = this.options;
    const store = new WebhookRepository(this.redis, this.scripts);
    const retry = webhookRetry(config);
    this.webhookJobs = await WebhookJobs.open({
      connections: queueConnections(this.options.redis, config.REDIS_TIMEOUT_MS, config.REDIS_FAILOVER_MS),
      retry,
      logger,
    });
    const chains = new WebhookChains(store, this.webhookJobs.queue, streams);
    this.eventAppender.onUserEvents(chains);
    const count = this.metrics.counter('webhook_deliveries_total', 'Webhook delivery attempts by outcome.', 'outcome');
    this.pingSender = webhookSender(config);
    this.webhookPings = new WebhookPings(store, this.pingSender, count, logger, config.WEBHOOK_TIMEOUT_MS);
    this.webhooks = new WebhookService(store, chains, this.webhookPings, {
      maxPerAccount: config.WEBHOOK_MAX_PER_ACCOUNT,
      destinations: webhookDestinations(config),
      secretOverlapMs: config.WEBHOOK_SECRET_OVERLAP_SECONDS * 1000,
    });
    if (!config.EMBEDDED_WORKER) return;
    this.webhookSender = webhookSender(config);
    const deliverer = new WebhookDeliverer(store, chains, streams, this.webhookSender, retry, count, logger);
    await this.webhookJobs.startWorker(deliverer, webhookWorkerOptions(config));
  }

  /**
   * Graceful stop: no new connections, in-flight requests finish (for up to the grace period), then
   * Redis closes, for up to REDIS_CLOSE_TIMEOUT_MS (Redis may be unreachable); then its connections are cut.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      // Held inbox reads answer now (with what their streams hold), rather than keep the drain waiting.
      this.realtime?.inbox?.stop();
      await this.http?.drain(this.options.config.SHUTDOWN_GRACE_MS);
      // What the last swipes taught discovery goes out before the connections close.
      this.swipeSignals?.flush();
      const closeBy = Date.now() + REDIS_CLOSE_TIMEOUT_MS;
      await settleBy(closeBy, this.rankingJobs?.stop());
      await settleBy(closeBy, this.webhookJobs?.stop());
      await settleBy(closeBy, this.webhookPings?.drain());
      this.webhookSender?.close();
      this.pingSender?.close();
      await settleBy(closeBy, this.outboxSweeper?.stop());
      await settleBy(closeBy, this.erasureSweeper?.stop());
      clearInterval(this.watcherReports);
      this.realtime?.stop();
      this.http?.close();
      this.tokens?.stop();
      this.socketLeases?.stop();
      this.eventLoopDelay.stop();
      await settleBy(closeBy, Promise.allSettled([this.redis.quit(), this.subscriber.quit(), this.scriptConnection.quit()]));
      this.rankingJobs?.disconnect();
      this.webhookJobs?.disconnect();
      for (const connection of [this.redis, this.subscriber, this.scriptConnection]) connection.disconnect();
    })();
    return this.stopping;
  }
}
