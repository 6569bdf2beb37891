export { spectatorAppends, spectatorEntry } from './spectator-appends.js';
export { registerSpectatorFrames } from './spectator-frames.js';
export { spectatorPageRoutes } from './spectator-page-routes.js';
export { spectatorRoutes } from './spectator-routes.js';
export { SpectatorService } from './spectator-service.js';
export { SpectatorTally, WATCHERS_REFRESH_MS } from './spectator-tally-repository.js';
