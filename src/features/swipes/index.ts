export type { SwipeRepository } from './swipe-repository.js';
export { swipeRoutes } from './swipe-routes.js';
export { SwipeService } from './swipe-service.js';
export type { SwipeListener, SwipeSignal } from './swipe-service.js';
