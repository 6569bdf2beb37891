export { spectatorAppends, spectatorEntry } from './spectator-appends.js';
export { registerSpectatorFrames } from './spectator-frames.js';
export { spectatorPageRoutes } from './spectator-page-routes.js';
export { spectatorRoutes } from './spectator-routes.js';
export { spectatorMatchSchema } from './spectator-api.js';
export { spectatorSocketFrameSchema } from './spectator-frame-api.js';
export { SpectatorService } from './spectator-service.js';
export type { SpectatorTallyRepository } from './spectator-tally-repository.js';
