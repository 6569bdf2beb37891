export { operationRoutes } from './operation-routes.js';
