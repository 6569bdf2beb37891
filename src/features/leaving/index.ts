export type { ErasureRepository } from './erasure-repository.js';
export { ErasureSweeper } from './erasure-sweeper.js';
export { LeaveService } from './leave-service.js';
