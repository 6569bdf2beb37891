import { Cluster, type ClusterNode, type ClusterOptions, type Redis } from 'ioredis';
import { clusterName, joinSlotMapNews, mastersSignature } from './slot-map-news.js';

/** The wait before a call refused during a failover is tried again, the slot map read anew (as ioredis waits by default). */
export const FAILOVER_RETRY_MS = 100;
/**
 * How often every cluster client reads the slot map even when nothing failed: a client whose commands wait
 * on a master that stopped answering without closing its connections (a blocking client has no socket
 * timeout) learns of the replica promoted in its place within this long, and its waiting commands move there.
 */
export const SLOT_MAP_REFRESH_MS = 5_000;

const CLOSED = 'Connection is closed.';
/** What a call written to a node connection that then ended for good fails with: "Connection is closed." in its words, but not the error ioredis sends again. */
export const IN_FLIGHT_CLOSED = 'Connection is closed (the call was sent and may have run, so it is not sent again).';

/** A refusal before running after which ioredis waits and asks again: no master reachable for the slot yet, CLUSTERDOWN, TRYAGAIN. */
const waitsForFailover = (error: Error) => error.message === CLOSED || /^(CLUSTERDOWN|TRYAGAIN)\b/.test(error.message);

type RetryState = { value?: number; deadline?: number };
type ErrorHandlers = { defaults: () => void };

type FailoverOptions = {
  /** How long a call refused during a failover is tried again, from its first refusal (REDIS_FAILOVER_MS). */
  failoverMs: number;
  /** A call written to a node connection that ends for good is never sent again (the fail-fast clients). */
  neverResend: boolean;
};

/**
 * A Redis Cluster client of ioredis that follows a failover within a bound. ioredis asks again, every
 * FAILOVER_RETRY_MS and with the slot map read anew, a call refused before it ran: no connection ready to its
 * slot's master (`Connection is closed.` before sending: a dead master not yet replaced, a new master's
 * connection still opening), CLUSTERDOWN (the cluster's state is fail while it elects a replica) and
 * TRYAGAIN; MOVED and ASK are followed at once. Here those waits end `failoverMs` after the call's first
 * refusal, when the call fails with the refusal itself (so the request path answers 503), rather than
 * after a count of retries.
 *
 * ioredis would also send again a call it had written to a node connection that then ended for good (a node
 * dropped from the slot map while a call waited on it), since that call fails with the same words. With
 * `neverResend` such a call fails with IN_FLIGHT_CLOSED instead: it may have run. (A connection that drops
 * and reconnects fails its calls with MaxRetriesPerRequestError, never sent again, on a fail-fast client.)
 *
 * The slot map is read again whenever a node connection reports an error (a dead master refusing
 * reconnections), whenever another client of the cluster in this process found new masters
 * (slot-map-news.ts), and every SLOT_MAP_REFRESH_MS, so a client notices a promotion without waiting for
 * one of its calls to be refused; the calls queued on a dead master's connection then fail and are sent to
 * the new master (see endWhileReconnecting). `duplicate()` (BullMQ's worker takes its blocking connection so) keeps
 * all this. ioredis offers no hooks for these: its methods are wrapped on the instance.
 */
export function failoverCluster(seeds: ClusterNode[], options: ClusterOptions, failover: FailoverOptions): Cluster {
  return follow(
    new Cluster(seeds, {
      ...options,
      retryDelayOnFailover: FAILOVER_RETRY_MS,
      retryDelayOnClusterDown: FAILOVER_RETRY_MS,
      retryDelayOnTryAgain: FAILOVER_RETRY_MS,
      // A backstop for redirections followed at once (MOVED, ASK): the waits are bounded by time, below.
      maxRedirections: 16 + 2 * Math.ceil(failover.failoverMs / FAILOVER_RETRY_MS),
      slotsRefreshInterval: SLOT_MAP_REFRESH_MS,
    }),
    failover,
    clusterName(seeds.map((seed) => (typeof seed === 'object' ? `${seed.host}:${seed.port}` : String(seed)))),
  );
}

function follow(cluster: Cluster, failover: FailoverOptions, seeds: string): Cluster {
  const handleError = cluster.handleError.bind(cluster);
  cluster.handleError = (error: Error, retry: RetryState, handlers: ErrorHandlers) => {
    if (waitsForFailover(error)) {
      retry.deadline ??= Date.now() + failover.failoverMs;
      if (Date.now() + FAILOVER_RETRY_MS > retry.deadline) return handlers.defaults();
    }
    handleError(error, retry, handlers);
  };
  const duplicate = cluster.duplicate.bind(cluster) as (...args: unknown[]) => Cluster;
  (cluster as unknown as { duplicate: (...args: unknown[]) => Cluster }).duplicate = (...args) => follow(duplicate(...args), failover, seeds);
  cluster.on('+node', (node: Redis) => {
    endWhileReconnecting(node);
    if (failover.neverResend) failSentCallsApart(node);
  });
  // ioredis coalesces the reads asked while one is under way.
  cluster.on('node error', () => cluster.refreshSlotsCache());
  shareSlotMapChanges(cluster, seeds);
  return cluster;
}

/** Joins the slot map news of the cluster (slot-map-news.ts): reads the slot map when another client found new masters, and tells them when it does. */
function shareSlotMapChanges(cluster: Cluster, seeds: string) {
  const member = joinSlotMapNews(seeds, () => cluster.refreshSlotsCache());
  cluster.on('refresh', () => member.saw(mastersSignature((slot) => cluster.slots[slot]?.[0])));
  cluster.once('end', member.leave);
}

/**
 * On one node connection: when it ends for good, the calls written to it and not yet answered fail with
 * IN_FLIGHT_CLOSED, and only those never written (its offline queue) with "Connection is closed.".
 * ioredis has no hook for this: its flushQueue is wrapped.
 */
function failSentCallsApart(node: Redis) {
  const connection = node as unknown as { flushQueue: (error: Error, options?: { commandQueue?: boolean }) => void };
  const flushQueue = connection.flushQueue.bind(node);
  connection.flushQueue = (error, options) => {
    if (error.message === CLOSED && options?.commandQueue !== false) {
      const sent = new Error(IN_FLIGHT_CLOSED);
      for (let item = node.commandQueue.shift(); item; item = node.commandQueue.shift()) item.command.reject(sent);
    }
    flushQueue(error, options);
  };
}

/**
 * ioredis's disconnect() of a node connection waiting to reconnect (its node died) only cancels the
 * reconnection: the calls queued on it (a blocking client's) would wait for ever, though the Cluster has
 * dropped the node from its slot map. Such a connection is closed as one never connected is, so that they
 * fail with "Connection is closed." and the Cluster sends them to their slot's new master.
 */
function endWhileReconnecting(node: Redis) {
  const disconnect = node.disconnect.bind(node);
  node.disconnect = (reconnect = false) => {
    if (!reconnect && node.status === 'reconnecting') node.status = 'wait';
    disconnect(reconnect);
  };
}
