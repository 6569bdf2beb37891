import { Redis, type RedisOptions } from 'ioredis';

/** How long a request-path command may go unanswered before Redis counts as stalled (REDIS_TIMEOUT_MS). */
export const DEFAULT_REDIS_TIMEOUT_MS = 1_000;

/**
 * The request-path client: automatic pipelining, no offline queue (a request fails fast with 503
 * while Redis is away instead of piling up), and reconnection forever with a capped back-off.
 *
 * A connected Redis that stops answering (paused, swapping, stuck) is caught by `socketTimeout`: a
 * connection that receives nothing for `timeoutMs` while commands wait is dropped, and every command
 * waiting on it fails at once (`maxRetriesPerRequest: 0`), including those queued behind the stalled
 * automatic pipeline. While the client reconnects (its ready check waits for an answer) every command
 * fails at once, so requests answer 503 within about `timeoutMs`, and the client is ready again as
 * soon as Redis answers. `commandTimeout` is only a backstop for a command stuck behind others on a
 * connection that still receives data. Commands unanswered when a connection drops are never sent
 * again: they may have run already.
 */
export function createRedis(url: string, overrides: RedisOptions = {}, timeoutMs = DEFAULT_REDIS_TIMEOUT_MS): Redis {
  return new Redis(url, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    socketTimeout: timeoutMs,
    commandTimeout: 2 * timeoutMs,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1_000),
    lazyConnect: true,
    ...overrides,
  });
}

/** A client for blocking or subscriber use (BullMQ workers, pub/sub): it waits out a stall and carries on. */
export function createBlockingRedis(url: string, overrides: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1_000),
    lazyConnect: true,
    ...overrides,
  });
}

/**
 * The connections a job queue and its worker own: a fail-fast one for adding jobs (like request-path
 * commands, it does not queue up while Redis is away) and a blocking one for the worker.
 */
export function queueConnections(url: string, timeoutMs?: number): { queue: () => Redis; blocking: () => Redis } {
  return { queue: () => createRedis(url, { enableAutoPipelining: false }, timeoutMs), blocking: () => createBlockingRedis(url) };
}

export { isConnectionError, isStoreFullError } from './redis-errors.js';
