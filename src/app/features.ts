import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import { DAY_MS } from '../platform/core/dates.js';
import type { Logger } from '../platform/logger.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import { OutboxRunner } from '../platform/outbox/outbox-runner.js';
import { OutboxSweeper } from '../platform/outbox/outbox-sweeper.js';
import { settleBy } from '../platform/redis/bounded-close.js';
import { AccountService, resolveTokenSecret, TokenService } from '../features/accounts/index.js';
import { BlockService } from '../features/blocks/index.js';
import { DiscoveryIndexer, DiscoveryService, FeedRanker, RankingJobs, SwipeSignals } from '../features/discovery/index.js';
import { EventAppender, EventReplay, FrameBuilders, LiveEvents, Realtime } from '../features/events/index.js';
import { ErasureSweeper, LeaveService } from '../features/leaving/index.js';
import { type Known, MatchEventSteps, MatchListing, MatchService, MessageService, ReadService, registerMatchFrames } from '../features/matches/index.js';
import { ReportService, SuspensionService } from '../features/moderation/index.js';
import { registerSpectatorFrames, spectatorAppends, SpectatorService } from '../features/spectator/index.js';
import { SwipeService } from '../features/swipes/index.js';
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
} from '../features/webhooks/index.js';
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
  SpectatorTallyRepository,
  SuspensionRepository,
  SwipeRepository,
  TokenRepository,
  UserRepository,
  WATCHERS_REFRESH_MS,
  WebhookRepository,
} from '../repositories.js';
import type { RedisConnections } from './redis-connections.js';

/**
 * Every feature of the server, built over its Redis connections and wired to each other: their services, the
 * repositories they share, the queues, the outbox and the sweeps. `start` builds and starts them; `stop` stops
 * what works in the background.
 */
export class ServerFeatures {
  tokens!: TokenService;
  accounts!: AccountService;
  users!: UserRepository;
  /** Accounts suspended by operators (hidden, refused) until lifted. */
  suspensions!: SuspensionRepository;
  suspensionService!: SuspensionService;
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
  private erasureSweeper?: ErasureSweeper;
  swipeService!: SwipeService;
  matchService!: MatchService;
  messageService!: MessageService;
  readService!: ReadService;
  reports!: ReportService;
  blocks!: BlockService;
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

  constructor(
    private readonly connections: RedisConnections,
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  async start(): Promise<this> {
    const { redis, scripts } = this.connections;
    const leavingAccounts = await this.startAccounts();
    const discoveryIndex = await this.startDiscovery();
    const tally = new SpectatorTallyRepository(redis);
    const streams = new EventStreamRepository(redis, scripts, this.frames, DAY_MS, tally.count, this.config.EVENT_STEP_MARK_SECONDS * 1000);
    await this.startEvents(streams);
    this.startMatches(streams);
    await this.startWebhooks(streams);
    this.outboxSweeper = new OutboxSweeper(this.outbox, this.config.EVENT_SWEEP_MS, this.logger).start();
    this.leaving = new LeaveService(this.accounts, leavingAccounts, this.matchService, new ErasureRepository(redis), this.logger);
    this.erasureSweeper = new ErasureSweeper(this.leaving, this.config.ERASURE_SWEEP_MS, this.logger).start();
    this.startSpectator(discoveryIndex, tally);
    this.startModeration();
    return this;
  }

  private async startAccounts(): Promise<LeavingRepository> {
    const { config, logger } = this;
    const { redis, scripts, pubsub } = this.connections;
    const tokenStore = new TokenRepository(redis, scripts);
    const { secret, generated } = await resolveTokenSecret(tokenStore, config.TOKEN_SECRET);
    if (generated) {
      logger.warn('TOKEN_SECRET is not set: using a generated secret kept in Redis and shared by every process; set TOKEN_SECRET in production.');
    }
    this.tokens = new TokenService(tokenStore, secret, config.TOKEN_TTL_SECONDS, logger, config.TOKENS_MAX_PER_ACCOUNT);
    await this.tokens.start(pubsub);
    this.users = new UserRepository(redis, scripts, accountFiling);
    this.suspensions = new SuspensionRepository(redis, scripts, accountFiling);
    this.rateLimiter = new RateLimiter(scripts);
    const leavingAccounts = new LeavingRepository(redis, scripts, accountFiling);
    this.accounts = new AccountService(this.users, this.tokens, pubsub, leavingAccounts, this.suspensions, new HiddenAccountsRepository(redis));
    return leavingAccounts;
  }

  private async startDiscovery(): Promise<DiscoveryIndexRepository> {
    const { config, logger } = this;
    const { redis, scripts } = this.connections;
    const discoveryIndex = new DiscoveryIndexRepository(redis, scripts, new AccountReadsRepository(redis, scripts));
    const feeds = new FeedRepository(redis, scripts);
    const ranker = new FeedRanker(discoveryIndex, feeds);
    this.rankingJobs = await RankingJobs.start({ connections: this.connections.forQueue(), ranker, logger, worker: config.EMBEDDED_WORKER });
    this.accounts.addListener(new DiscoveryIndexer(this.rankingJobs.queue, logger));
    this.discovery = new DiscoveryService(discoveryIndex, feeds, ranker, this.rankingJobs.queue, undefined, config.PASS_EXPIRY_DAYS * DAY_MS);
    this.swipeSignals = new SwipeSignals(feeds, logger);
    return discoveryIndex;
  }

  /** The event streams' transport: replays, the live relay, the inbox. */
  private async startEvents(streams: EventStreamRepository) {
    const { redis, subscriber, pubsub } = this.connections;
    this.realtime = new Realtime({
      replay: new EventReplay(streams),
      live: new LiveEvents(pubsub),
      subscriberReady: () => subscriber.status === 'ready',
      storeAnswers: () => redis.ping(),
      logger: this.logger,
      inbox: { maxWaitingPerAccount: this.config.EVENTS_MAX_WAITING_PER_ACCOUNT },
      tokens: this.tokens,
    });
    await this.realtime.start();
  }

  /**
   * Swipes, matches and messages, and the outbox that completes their writes: the match lists, and the
   * events appended to their recipients' streams and, for agents, the spectators'.
   */
  private startMatches(streams: EventStreamRepository) {
    const { config, logger } = this;
    const { redis, scripts } = this.connections;
    this.swipes = new SwipeRepository(redis, scripts, new AccountReadsRepository(redis, scripts), {
      limit: config.LIKE_RATE_LIMIT,
      windowSeconds: config.LIKE_RATE_WINDOW_SECONDS,
    });
    const threadKeptSeconds = config.REPORT_EVIDENCE_HOURS * 3_600;
    this.matches = new MatchRepository(redis, scripts, threadKeptSeconds);
    this.messages = new MessageRepository(redis, scripts, { maxMessages: config.THREAD_MAX_MESSAGES, maxAgeMs: config.THREAD_MAX_AGE_DAYS * DAY_MS });
    const deadLetters = this.metrics.counter(
      'outbox_dead_letters_total',
      'Outbox records moved to the dead letter (am:outbox:dead) by this process, by pool.',
      'pool',
    );
    this.eventAppender = new EventAppender(streams);
    this.outbox = new OutboxRunner<Known>(new OutboxRepository(redis, scripts), logger, { maxAttempts: config.OUTBOX_MAX_ATTEMPTS, buried: deadLetters })
      .register(new MatchListing(new MatchListRepository(scripts, DAY_MS, threadKeptSeconds * 1000)))
      .register(new MatchEventSteps(this.eventAppender, this.users, this.messages).addAudience(spectatorAppends));
    const sources = { messages: this.messages, users: this.users, suspensions: this.suspensions, matches: this.matches };
    registerMatchFrames(this.frames, sources);
    registerSpectatorFrames(this.frames, sources);
    this.swipeService = new SwipeService(this.swipes, this.matches, this.outbox, config.UNDO_WINDOW_SECONDS * 1000, this.swipeSignals);
    const reads = new ReadStateRepository(redis, scripts);
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

  /** Reports from accounts, which the operators read and close; suspensions; blocks between accounts of a pool. */
  private startModeration() {
    const { config } = this;
    const { redis, scripts, pubsub } = this.connections;
    const limits = { perPool: config.REPORTS_MAX_OPEN, perReporter: config.REPORTS_MAX_OPEN_PER_REPORTER };
    const reports = new ReportRepository(redis, scripts, limits);
    this.reports = new ReportService(reports, this.users, this.matches, this.messages, this.suspensions, config.REPORT_EVIDENCE_HOURS);
    this.suspensionService = new SuspensionService(this.suspensions, this.users, this.tokens, pubsub);
    const max = config.BLOCKS_MAX_PER_ACCOUNT;
    this.blocks = new BlockService(new BlockRepository(redis, scripts, max), this.users, this.matchService, max, this.suspensions);
  }

  /** Webhook CRUD, their delivery chains fed by the outbox steps that append events, and an embedded worker. */
  private async startWebhooks(streams: EventStreamRepository) {
    const { config, logger } = this;
    const store = new WebhookRepository(this.connections.redis, this.connections.scripts);
    const retry = webhookRetry(config);
    this.webhookJobs = await WebhookJobs.open({ connections: this.connections.forQueue(), retry, logger });
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
   * Stops the work in the background, waiting until `closeBy` at most for each part: what the last swipes taught
   * discovery goes out, the queues' workers finish their jobs, pings in flight end, the sweeps stop.
   */
  async stopWork(closeBy: number): Promise<void> {
    this.swipeSignals?.flush();
    await settleBy(closeBy, this.rankingJobs?.stop());
    await settleBy(closeBy, this.webhookJobs?.stop());
    await settleBy(closeBy, this.webhookPings?.drain());
    this.webhookSender?.close();
    this.pingSender?.close();
    await settleBy(closeBy, this.outboxSweeper?.stop());
    await settleBy(closeBy, this.erasureSweeper?.stop());
    clearInterval(this.watcherReports);
  }

  /** Cuts the queues' connections (after the Redis connections were closed). */
  disconnectQueues() {
    this.rankingJobs?.disconnect();
    this.webhookJobs?.disconnect();
  }
}
