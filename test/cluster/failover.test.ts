import { createHash } from 'node:crypto';
import keySlot from 'cluster-key-slot';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_FLIGHT_CLOSED } from '../../src/platform/redis/failover-cluster.js';
import { createRedis, isConnectionError, type RedisClient } from '../../src/platform/redis/redis.js';
import { ConnectionClosedError } from '../../src/platform/redis/script-connection.js';
import { SlotRoutedConnection } from '../../src/platform/redis/slot-routed-connection.js';
import { eventually } from '../support/eventually.js';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.js';

/**
 * Redis Cluster failovers, on clusters of three masters with a replica each and a node timeout of 2 s (a
 * replica is promoted 3-4 s after its master dies): each client path follows the promotion, calls not yet
 * run waiting for it within REDIS_FAILOVER_MS, calls already sent failing and never sent again.
 */
const NODE_TIMEOUT_MS = 2_000;
/** Long enough for any call refused during a failover to see the promotion, even on a busy machine. */
const FAILOVER_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const script = (lua: string) => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });
/** INCR of KEYS[1] in a script: one application of the call leaves 1. */
const INCR = script("return redis.call('INCR', KEYS[1])");

/** A plain connection to one node, for reads of what the cluster holds. */
function nodeClient(port: number): Redis {
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  return client;
}

async function onNode<T>(port: number, read: (node: Redis) => Promise<T>): Promise<T> {
  const node = nodeClient(port);
  try {
    await node.connect();
    return await read(node);
  } finally {
    node.disconnect();
  }
}

/** Waits until every replica of the master on `port` holds everything the master wrote (their offsets meet). */
async function replicated(port: number) {
  await eventually(`the replicas of ${port} caught up`, async () => {
    const info = await onNode(port, (node) => node.info('replication'));
    const offset = Number(/master_repl_offset:(\d+)/.exec(info)?.[1]);
    const replicas = [...info.matchAll(/^slave\d+:.*offset=(\d+)/gm)].map((found) => Number(found[1]));
    return replicas.length > 0 && replicas.every((at) => at >= offset);
  });
}

/** A key (a hash tag of its own) whose slot the master on `port` serves. */
async function keyOn(port: number, prefix: string): Promise<string> {
  const ranges = (await onNode(port, (node) => node.call('CLUSTER', 'SLOTS'))) as Array<[number, number, [string, number]]>;
  for (let n = 0; ; n++) {
    const key = `{${prefix}-${n}}`;
    const slot = keySlot(key);
    if (ranges.some(([first, last, [, master]]) => first <= slot && slot <= last && master === port)) return key;
  }
}

describe('the lean connection and the ioredis clients in a failover', () => {
  let cluster: RedisCluster;
  let lean: SlotRoutedConnection;
  const clients: RedisClient[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster({ replicas: 1, nodeTimeoutMs: NODE_TIMEOUT_MS });
    // Calls time out after a minute: only the failover may fail them here.
    lean = new SlotRoutedConnection(cluster.nodes, 60_000, FAILOVER_MS);
    await lean.connect();
  });
  afterAll(async () => {
    lean?.disconnect();
    for (const client of clients) client.disconnect();
    await cluster?.cleanup();
  });

  const failFast = async (timeoutMs: number) => {
    const client = createRedis({ kind: 'cluster', nodes: cluster.nodes }, {}, timeoutMs, FAILOVER_MS) as Cluster;
    client.on('error', () => {});
    clients.push(client);
    await client.connect();
    return client;
  };

  it('a lean call never sent, its master dead, waits for the replica promoted in its place and runs there once', async () => {
    const victim = cluster.ports[0]!;
    const key = await keyOn(victim, 'lean-waits');
    expect(await lean.evalsha(INCR, [key], [])).toBe(1);
    await replicated(victim);

    await cluster.kill(victim);
    // The connection has seen its master go: the next call cannot be sent.
    await sleep(100);
    const killedAt = Date.now();
    const during = lean.evalsha(INCR, [key], []);
    const promoted = await cluster.waitForPromotion(victim);
    expect(await during).toBe(2);
    // It waited for the failover (at least the node timeout), rather than failing at once.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(NODE_TIMEOUT_MS);
    expect(await onNode(promoted, (node) => node.get(key))).toBe('2');
  });

  it('a lean call sent to a master killed before it answered fails, and is not sent again to the promoted replica', async () => {
    const victim = cluster.ports[1]!;
    const key = await keyOn(victim, 'lean-in-flight');
    expect(await lean.evalsha(INCR, [key], [])).toBe(1);
    await replicated(victim);

    // Stopped, the master takes the call into its socket's buffer and never runs it; then it dies.
    await cluster.pause(victim);
    const inFlight = lean.evalsha(INCR, [key], []).then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    await cluster.kill(victim);
    const error = await inFlight;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as ConnectionClosedError).sent).toBe(true);
    expect(isConnectionError(error)).toBe(true);

    const promoted = await cluster.waitForPromotion(victim);
    // Never sent again: the promoted replica has the first call's write only; a call now runs there.
    expect(await onNode(promoted, (node) => node.get(key))).toBe('1');
    expect(await lean.evalsha(INCR, [key], [])).toBe(2);
  });

  it('ioredis: a fail-fast call never sent waits for the promotion; one in flight when its master is dropped from the slot map is not sent again', async () => {
    const victim = cluster.ports[2]!;
    const [waiting, sent] = [await keyOn(victim, 'io-waits'), await keyOn(victim, 'io-in-flight')];
    // `patient` sees no stall for 20 s, so its call waits on the stopped master until the Cluster drops that
    // master from its slot map (the replica promoted); `quick` drops its connection after 1 s.
    const patient = await failFast(20_000);
    // Its slot map is read from another node when the stopped master, asked first, has not answered in 0.5 s
    // (rather than in its 20 s).
    patient.options.slotsRefreshTimeout = 500;
    const quick = await failFast(1_000);
    await quick.set(waiting, '0');
    await patient.set(sent, '0');
    await replicated(victim);

    await cluster.pause(victim);
    const inFlight = patient.incr(sent).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    // `quick`'s first call finds the master stopped: after 1 s without an answer the connection is dropped
    // and the call fails (it was sent). From then on its calls cannot be sent: they wait.
    const stalled = await quick.incr(waiting).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(stalled?.name).toBe('MaxRetriesPerRequestError');
    const during = quick.incr(waiting);
    const promoted = await cluster.waitForPromotion(victim);
    expect(await during).toBe(1);

    const error = await inFlight;
    expect(error?.message).toBe(IN_FLIGHT_CLOSED);
    expect(isConnectionError(error)).toBe(true);
    expect(await onNode(promoted, async (node) => [await node.get(waiting), await node.get(sent)])).toEqual(['1', '0']);
    expect(await patient.incr(sent)).toBe(1);
    cluster.resume(victim);
    expect(await cluster.waitForReplica(victim)).toBe(promoted);
  }, 90_000);
});
