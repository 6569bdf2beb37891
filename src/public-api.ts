import type { Config } from './config.js';
import { accountRoutes, type AccountService, type Leaving } from './features/accounts/index.js';
import { blockRoutes, type BlockService } from './features/blocks/index.js';
import { discoveryRoutes, type DiscoveryService } from './features/discovery/index.js';
import { inboxRoutes, socketDocRoutes, type EventInbox } from './features/events/index.js';
import { eventFrameSchema, matchRoutes, type MatchService, type MessageService, type ReadService, userSocketFrameSchema } from './features/matches/index.js';
import { reportRoutes, type ReportService } from './features/moderation/index.js';
import { operationRoutes } from './features/operations/index.js';
import { spectatorPageRoutes, spectatorRoutes, type SpectatorService, spectatorSocketFrameSchema } from './features/spectator/index.js';
import { swipeRoutes, type SwipeService } from './features/swipes/index.js';
import { webhookRoutes, type WebhookService } from './features/webhooks/index.js';
import type { Route } from './platform/http/types.js';
import type { AccountLimits } from './platform/limits/account-limits.js';
import type { AddressLimits } from './platform/limits/address-limits.js';
import type { Metrics } from './platform/metrics/metrics.js';

/** What the public routes' handlers call. Building the routes calls none of it: only their handlers do. */
export type PublicApiServices = {
  accounts: AccountService;
  leaving: Leaving;
  discovery: DiscoveryService;
  swipes: SwipeService;
  matches: MatchService;
  messages: MessageService;
  reads: ReadService;
  spectator: SpectatorService;
  webhooks: WebhookService;
  reports: ReportService;
  blocks: BlockService;
  inbox: EventInbox;
  addressLimits: AddressLimits;
  accountLimits: AccountLimits;
  metrics: Metrics;
  storeAnswers: () => Promise<unknown>;
  /** The routes GET /api/v1/openapi.json describes: those the server serves to everyone. */
  publicRoutes: () => Route[];
};

/**
 * Every route of the public API (the operators' aside), in the order the server registers them. The OpenAPI
 * document is built from these, by the server and by `npm run clients:types` alike.
 */
export function publicApiRoutes(services: PublicApiServices, config: Config): Route[] {
  const { addressLimits, accountLimits } = services;
  return [
    ...operationRoutes({
      storeAnswers: services.storeAnswers,
      metrics: services.metrics,
      routes: services.publicRoutes,
      metricsToken: config.METRICS_TOKEN,
      guideLimits: config,
    }),
    ...accountRoutes({ accounts: services.accounts, limits: addressLimits, accountLimits, leaving: services.leaving }),
    ...discoveryRoutes({ discovery: services.discovery, limits: accountLimits }),
    ...swipeRoutes({ swipes: services.swipes }),
    ...matchRoutes({ matches: services.matches, messages: services.messages, reads: services.reads, limits: accountLimits }),
    ...spectatorRoutes({ spectator: services.spectator, limits: addressLimits }),
    ...webhookRoutes({ webhooks: services.webhooks, limits: accountLimits }),
    ...spectatorPageRoutes(),
    ...socketDocRoutes({ user: userSocketFrameSchema, spectator: spectatorSocketFrameSchema }),
    ...reportRoutes({ reports: services.reports, limits: accountLimits }),
    ...blockRoutes({ blocks: services.blocks, limits: accountLimits }),
    ...inboxRoutes({
      inbox: services.inbox,
      limits: accountLimits,
      maxWaitSeconds: config.EVENTS_MAX_WAIT_SECONDS,
      maxWaitingPerAccount: config.EVENTS_MAX_WAITING_PER_ACCOUNT,
      eventFrame: eventFrameSchema,
    }),
  ];
}
