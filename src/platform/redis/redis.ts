import { Redis, type Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import { failoverCluster } from './failover-cluster.js';
import { clusterSeed, type RedisTopology } from './redis-topology.js';
import { reconnectDelay } from './reconnect-delay.js';

/** A client of either topology; the rest of the code takes this, never the single-node class. */
export type RedisClient = Redis | Cluster;

/** How long a request-path command may go unanswered before Redis counts as stalled (REDIS_TIMEOUT_MS). */
export const DEFAULT_REDIS_TIMEOUT_MS = 1_000;
/**
 * How long a call refused during a Redis Cluster failover, before it ran, may wait for the new master
 * (REDIS_FAILOVER_MS). Redis promotes a replica 1-3 s after `cluster-node-timeout`: this default rides out
 * a failover under a node timeout of up to 7 s (docker-compose.yml's is 5 s).
 */
export const DEFAULT_REDIS_FAILOVER_MS = 10_000;

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
 *
 * On a cluster the same options apply to every node connection; commands go to masters only (a replica
 * may lag behind an acknowledged write), MOVED/ASK are followed, and the slot map is re-read within
 * `timeoutMs` when a node stops answering. During a failover a command refused before it ran (its slot's
 * master unreachable, CLUSTERDOWN, TRYAGAIN) is asked again every 100 ms for up to `failoverMs`, and goes
 * to the promoted replica once the slot map names it (failover-cluster.ts); one sent on a connection that
 * dropped still fails and is not sent again.
 */
export function createRedis(
  topology: RedisTopology,
  overrides: RedisOptions = {},
  timeoutMs = DEFAULT_REDIS_TIMEOUT_MS,
  failoverMs = DEFAULT_REDIS_FAILOVER_MS,
): RedisClient {
  const options: RedisOptions = {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    socketTimeout: timeoutMs,
    commandTimeout: 2 * timeoutMs,
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelay,
    lazyConnect: true,
    ...overrides,
  };
  return topology.kind === 'single' ? new Redis(topology.url, options) : newCluster(topology.nodes, options, { slotsRefreshTimeout: timeoutMs }, failoverMs);
}

/**
 * A client for blocking or subscriber use (BullMQ workers, pub/sub): it waits out a stall and carries on.
 * On a cluster, a command waiting on a master that died moves to the promoted replica once the slot map
 * names it (read again when a node errs, and every few seconds).
 */
export function createBlockingRedis(
  topology: RedisTopology,
  overrides: RedisOptions = {},
  clusterOverrides: ClusterOptions = {},
  failoverMs = DEFAULT_REDIS_FAILOVER_MS,
): RedisClient {
  const options: RedisOptions = { maxRetriesPerRequest: null, retryStrategy: reconnectDelay, lazyConnect: true, ...overrides };
  return topology.kind === 'single' ? new Redis(topology.url, options) : newCluster(topology.nodes, options, clusterOverrides, failoverMs);
}

/**
 * The subscriber connection(s) of sharded pub/sub: on a cluster, one per master, following slot moves and
 * failovers (ioredis replaces a master's subscriber connection once the slot map names another master).
 */
export function createSubscriberRedis(topology: RedisTopology, failoverMs = DEFAULT_REDIS_FAILOVER_MS): RedisClient {
  // PubSub subscribes again itself once a connection is back, awaiting each reply. ioredis's own resubscribe
  // leaves its commands' failures unhandled: a connection closed before they are answered (a stop, or Redis
  // going away again) would end the process on an unhandled rejection.
  return createBlockingRedis(topology, { autoResubscribe: false }, { shardedSubscribers: true }, failoverMs);
}

/**
 * A Cluster with the options of a single-node client: `redisOptions` for each node connection, and the
 * cluster-level twins of the options ioredis keeps apart (offline queue, reconnection, pipelining).
 */
function newCluster(nodes: readonly string[], options: RedisOptions, extra: ClusterOptions, failoverMs: number): Cluster {
  const { enableOfflineQueue, retryStrategy, lazyConnect, enableAutoPipelining, maxRetriesPerRequest, ...nodeOptions } = options;
  const clusterOptions: ClusterOptions = {
    scaleReads: 'master',
    // Ready once the slot map is read; start-up's own check then refuses a cluster that is not ok, in one line.
    enableReadyCheck: false,
    enableOfflineQueue: enableOfflineQueue ?? true,
    enableAutoPipelining: enableAutoPipelining ?? false,
    lazyConnect: lazyConnect ?? false,
    // Lost every node: try again forever with the same capped back-off as a single node.
    clusterRetryStrategy: (attempt) => (retryStrategy === null ? null : reconnectDelay(attempt)),
    // A node that drops (restarted, or failed over to) is reconnected like a single node, not only on the next MOVED.
    clusterNodeRetryStrategy: reconnectDelay,
    slotsRefreshTimeout: 1_000,
    redisOptions: { ...nodeOptions, maxRetriesPerRequest },
    ...extra,
  };
  // A command whose connection closed is not sent again when it must fail fast: it may have run already.
  // Refusals before running (no master reachable yet, CLUSTERDOWN, TRYAGAIN, MOVED, ASK) are safe to follow.
  return failoverCluster(nodes.map(clusterSeed), clusterOptions, { failoverMs, neverResend: maxRetriesPerRequest === 0 });
}

/**
 * The connections a job queue and its worker own: a fail-fast one for adding jobs (like request-path
 * commands, it does not queue up while Redis is away) and a blocking one for the worker.
 */
export function queueConnections(topology: RedisTopology, timeoutMs?: number, failoverMs?: number): { queue: () => RedisClient; blocking: () => RedisClient } {
  return {
    queue: () => createRedis(topology, { enableAutoPipelining: false }, timeoutMs, failoverMs),
    blocking: () => createBlockingRedis(topology, {}, {}, failoverMs),
  };
}

export { isConnectionError, isStoreFullError } from './redis-errors.js';
