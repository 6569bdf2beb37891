/**
 * The repositories the compositions (the server's, in app/; worker.ts, layout-migration.ts) build and hand to the services. A
 * feature's index.ts exports its repositories as types only; they are built here, imported by path.
 */
export { AccountReadsRepository } from './features/accounts/account-reads-repository.js';
export { HiddenAccountsRepository } from './features/accounts/hidden-accounts-repository.js';
export { LeavingRepository } from './features/accounts/leaving-repository.js';
export { SuspensionRepository } from './features/accounts/suspension-repository.js';
export { TokenRepository } from './features/accounts/token-repository.js';
export { UserRepository } from './features/accounts/user-repository.js';
export { BlockRepository } from './features/blocks/block-repository.js';
export { accountFiling, DiscoveryIndexRepository } from './features/discovery/discovery-index-repository.js';
export { FeedRepository } from './features/discovery/feed-repository.js';
export { EventStreamRepository } from './features/events/event-stream-repository.js';
export { ErasureRepository } from './features/leaving/erasure-repository.js';
export { MatchListRepository } from './features/matches/match-list-repository.js';
export { MatchRepository } from './features/matches/match-repository.js';
export { MessageRepository } from './features/matches/message-repository.js';
export { ReadStateRepository } from './features/matches/read-state-repository.js';
export { ThreadLayoutRepository } from './features/matches/thread-layout-repository.js';
export { ReportRepository } from './features/moderation/report-repository.js';
export { SpectatorTallyRepository, WATCHERS_REFRESH_MS } from './features/spectator/spectator-tally-repository.js';
export { SwipeRepository } from './features/swipes/swipe-repository.js';
export { WebhookRepository } from './features/webhooks/webhook-repository.js';
export { OutboxRepository } from './platform/outbox/outbox-repository.js';
export { RateLimiter } from './platform/limits/rate-limit-repository.js';
export { SocketLeases } from './platform/limits/socket-lease-repository.js';
