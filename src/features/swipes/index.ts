export { SwipeRepository } from './swipe-repository.js';
export { likeRoutes } from './swipe-routes.js';
export { SwipeService } from './swipe-service.js';
