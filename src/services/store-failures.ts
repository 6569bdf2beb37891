/**
 * What a failed store call means to its caller: Redis unreachable (answer 503) or full (507, nothing was
 * written). The edges ask here rather than in the store.
 */
export { isConnectionError, isStoreFullError } from '../store/redis-errors.js';
