export { blockRoutes } from './block-routes.js';
export type { BlockRepository } from './block-repository.js';
export { BlockService } from './block-service.js';
