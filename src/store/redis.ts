import { Redis, type RedisOptions } from 'ioredis';

/**
 * The request-path client: automatic pipelining, no offline queue (a request fails fast with 503
 * while Redis is away instead of piling up), and reconnection forever with a capped back-off.
 */
export function createRedis(url: string, overrides: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1_000),
    lazyConnect: true,
    ...overrides,
  });
}

/** A client for blocking or subscriber use (BullMQ workers, pub/sub). */
export function createBlockingRedis(url: string, overrides: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1_000),
    lazyConnect: true,
    ...overrides,
  });
}

/** True for errors that mean "Redis is unreachable", as opposed to a bug in a command. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const message = error.message;
  return (
    /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Command timed out|max retries|MaxRetriesPerRequest|LOADING|MASTERDOWN|READONLY/i.test(
      message,
    ) || error.name === 'MaxRetriesPerRequestError'
  );
}
