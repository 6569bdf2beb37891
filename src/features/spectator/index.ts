export { spectatorPageRoutes } from './spectator-page-routes.js';
export { spectatorMatchSchema, spectatorRoutes } from './spectator-routes.js';
export { SpectatorService } from './spectator-service.js';
export { SpectatorTally, WATCHERS_REFRESH_MS } from './spectator-tally-repository.js';
export { spectatorMatch, spectatorMatchCreated, spectatorMatchEnded, spectatorMessageCreated } from './spectator-views.js';
