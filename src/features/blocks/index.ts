export { blockRoutes } from './block-routes.js';
export { BlockRepository } from './block-repository.js';
export { BlockService } from './block-service.js';
