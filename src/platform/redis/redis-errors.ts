/**
 * True for errors that mean "Redis is unreachable", as opposed to a bug in a command. On a Redis Cluster that
 * includes a failover outlasting REDIS_FAILOVER_MS: CLUSTERDOWN and TRYAGAIN refusals, and redirections that
 * never settled.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const message = error.message;
  return (
    /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Command timed out|Socket timeout|max retries|MaxRetriesPerRequest|LOADING|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|Too many Cluster redirections/i.test(
      message,
    ) || error.name === 'MaxRetriesPerRequestError'
  );
}

/** True when Redis refused a write because it reached `maxmemory` (noeviction): nothing was written. */
export function isStoreFullError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('OOM ');
}

/**
 * A write Redis ran and answered, but fewer replicas than asked confirmed holding it in time (WAIT): a
 * failover now could lose it, so it is not acknowledged. Retrying it with the same Idempotency-Key gives
 * the one outcome.
 */
export class ReplicasBehindError extends Error {
  override name = 'ReplicasBehindError';

  constructor(
    readonly confirmed: number,
    readonly wanted: number,
  ) {
    super(`${confirmed < 0 ? 'no answer' : `${confirmed} replicas`} confirmed the write, ${wanted} wanted`);
  }
}
