import { mkdtempSync, rmSync } from 'node:fs';
import { Cluster, Redis } from 'ioredis';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application } from '../../src/app.js';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { RedisProcess } from '../../src/platform/redis-server/redis-process.js';
import { Scripts } from '../../src/platform/redis/scripts.js';
import { clusterSeed, type RedisTopology } from '../../src/platform/redis/redis-topology.js';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { startRedisCluster } from './redis-cluster.js';
import { ContractClient, contractOf } from './contract-client.js';

export type TestApp = { app: Application; api: ContractClient; baseUrl: string; stop: () => Promise<void> };

/** A real redis-server of this test file's own, on a free port, in a throw-away directory. */
export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisProcess & { cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-match-redis-'));
  const redis = await new RedisProcess({ dir, persist: options.persist ?? false }).start();
  return Object.assign(redis, {
    cleanup: async () => {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/**
 * The Redis of a test file, in the topology this run tests (`TEST_REDIS_TOPOLOGY=cluster`: a Redis Cluster
 * of the file's own, three masters with a replica each; otherwise a single redis-server). Tests of what only a single node can
 * show (stopping or pausing it, filling it, its refusal at start-up) use `startRedis` and are listed as
 * single-only in vitest.config.ts.
 */
export type TestRedis = {
  topology: RedisTopology;
  /** The URL of a single Redis (undefined on a cluster): for what only a single node can do, such as MONITOR. */
  url?: string;
  /** What a child process (`src/main.ts`) is given to reach it: REDIS_URL or REDIS_CLUSTER_NODES. */
  env: Record<string, string>;
  /** A plain client for the test's own reads and writes (the caller disconnects it). */
  client: () => RedisClient;
  cleanup: () => Promise<void>;
};

export const testTopologyKind = (): RedisTopology['kind'] => (process.env.TEST_REDIS_TOPOLOGY === 'cluster' ? 'cluster' : 'single');

/** A plain ioredis client of `topology` (a Cluster follows MOVED; reads go to masters). */
export function connectClient(topology: RedisTopology): RedisClient {
  return topology.kind === 'single' ? new Redis(topology.url) : new Cluster(topology.nodes.map(clusterSeed), { scaleReads: 'master' });
}

/** Runs `command` on every master (on a single Redis: on it), e.g. CLIENT KILL, FLUSHALL or INFO. */
export async function onEveryMaster<T>(client: RedisClient, command: (node: Redis) => Promise<T>): Promise<T[]> {
  if (!(client instanceof Cluster)) return [await command(client)];
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return Promise.all(client.nodes('master').map(command));
}

/**
 * The suite's cluster: a replica for every master, as a deployment runs it. Its node timeout (Redis's own is
 * 15 s) is short enough for the nodes to exchange their slots within a start's 2 s (each node pings every
 * other at least every half node timeout), long enough that a busy machine never makes a master look dead.
 */
export const TEST_CLUSTER = { replicas: 1, nodeTimeoutMs: 3_000 } as const;

export async function startTestRedis(): Promise<TestRedis> {
  if (testTopologyKind() === 'cluster') {
    const cluster = await startRedisCluster(TEST_CLUSTER);
    const topology: RedisTopology = { kind: 'cluster', nodes: cluster.nodes };
    return { topology, env: { REDIS_CLUSTER_NODES: cluster.nodes.join(','), REDIS_URL: '' }, client: () => connectClient(topology), cleanup: cluster.cleanup };
  }
  const server = await startRedis();
  const topology: RedisTopology = { kind: 'single', url: server.url };
  return { topology, url: server.url, env: { REDIS_URL: server.url }, client: () => connectClient(topology), cleanup: server.cleanup };
}

/** What `startApp` connects to: a TestRedis, a topology, or the URL of a single Redis. */
export type AppTarget = TestRedis | RedisTopology | string;

const topologyOf = (target: AppTarget): RedisTopology =>
  typeof target === 'string' ? { kind: 'single', url: target } : 'kind' in target ? target : target.topology;

/**
 * Per-address limits raised out of the way: every test client connects from 127.0.0.1. The tests of those
 * limits set them back (see `REAL_ADDRESS_LIMITS`) and connect from addresses of their own.
 */
const TEST_ADDRESS_LIMITS = { REGISTER_RATE_LIMIT: 100_000, LOGIN_RATE_LIMIT: 100_000, SPECTATOR_RATE_LIMIT: 100_000, SPECTATOR_UPGRADE_RATE_LIMIT: 100_000 };
export const REAL_ADDRESS_LIMITS = { REGISTER_RATE_LIMIT: 5, LOGIN_RATE_LIMIT: 10, SPECTATOR_RATE_LIMIT: 600, SPECTATOR_UPGRADE_RATE_LIMIT: 60 };

/** A Redis of this file's own with a plain client and the Lua scripts on it: for testing store and service classes without a server. */
export async function startStore() {
  const server = await startTestRedis();
  const redis = server.client();
  return {
    redis,
    scripts: new Scripts(redis),
    /** The Redis itself, for a server (`startApp`) or a child process (`env`) to reach. */
    server,
    cleanup: async () => {
      redis.disconnect();
      await server.cleanup();
    },
  };
}

/** The real server, in this process, on a free port, against `target`; `api` holds its answers to the OpenAPI document. */
export async function startApp(target: AppTarget, overrides: ConfigInput = {}): Promise<TestApp> {
  const config = loadConfig({
    PORT: 0,
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    TOKEN_SECRET: 'test-secret-test-secret-test-secret!',
    ...TEST_ADDRESS_LIMITS,
    ...overrides,
  });
  const app = await new Application({ config, redis: topologyOf(target), logger: createLogger(config.LOG_LEVEL) }).start();
  const baseUrl = `http://127.0.0.1:${app.port}`;
  const api = new ContractClient(baseUrl, contractOf(app));
  return {
    app,
    api,
    baseUrl,
    stop: async () => {
      api.close();
      await app.stop();
    },
  };
}

/** One Redis and two servers on it: two server processes' worth of everything (connections, relay, uWS app). */
export async function startTwoApps(overrides: ConfigInput = {}) {
  const redis = await startTestRedis();
  const [one, two] = await Promise.all([startApp(redis, overrides), startApp(redis, overrides)]);
  return {
    redis,
    one,
    two,
    stop: async () => {
      await Promise.all([one.stop(), two.stop()]);
      await redis.cleanup();
    },
  };
}

/**
 * A persistent single redis-server of the file's own and one server on it: for the tests that stop Redis and
 * start it again (`redis.stop()`, `redis.start()`; single-only in vitest.config.ts).
 */
export async function startRestartableStack(overrides: ConfigInput = {}) {
  const redis = await startRedis({ persist: true });
  return serverOn(redis, redis.url, overrides);
}

/** Redis plus one server: what most integration test files need. */
export async function startStack(overrides: ConfigInput = {}) {
  const redis = await startTestRedis();
  return serverOn(redis, redis, overrides);
}

/** A server on `target` beside `redis`, which its stop cleans up after it. */
async function serverOn<R extends { cleanup: () => Promise<void> }>(redis: R, target: AppTarget, overrides: ConfigInput) {
  const server = await startApp(target, overrides);
  return {
    ...server,
    redis,
    stop: async () => {
      await server.stop();
      await redis.cleanup();
    },
  };
}
