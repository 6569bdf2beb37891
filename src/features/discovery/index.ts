export type { DiscoveryIndexRepository } from './discovery-index-repository.js';
export { DiscoveryIndexer } from './discovery-indexer.js';
export { discoveryRoutes } from './discovery-routes.js';
export { DiscoveryService } from './discovery-service.js';
export { FeedRanker } from './feed-ranker.js';
export type { FeedRepository } from './feed-repository.js';
export { RankingJobs } from './ranking-jobs.js';
export { SwipeSignals } from './swipe-signals.js';
