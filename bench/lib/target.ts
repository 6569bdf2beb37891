import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import type { RedisTopology } from '../../src/platform/redis/redis-topology.js';
import { freePort } from '../../src/platform/redis-server/free-port.js';
import { startRedisCluster } from '../../src/platform/redis-server/redis-cluster-process.js';
import { RedisProcess } from '../../src/platform/redis-server/redis-process.js';
import { startRedisReplica } from '../../src/platform/redis-server/redis-replica-process.js';
import { REPO_ROOT, spawnTs, stopChild, waitForLine } from './children.js';

/** The service under test: started by the bench (embedded default, or two processes on a Redis Cluster) or reached at a given URL. */
export type Target = {
  kind: 'embedded' | 'url' | 'cluster';
  /** The first (or only) process of the service. */
  baseUrl: string;
  host: string;
  port: number;
  /** Every process of the service (one, or two on a cluster): the load is spread over them. */
  baseUrls: string[];
  ports: number[];
  /** The single Redis the service uses, when known (embedded, or --redis-url). */
  redisUrl?: string;
  /** The Redis Cluster the service uses (`host:port` of every master). */
  clusterNodes?: string[];
  /** The first server's process id, when the bench started it (for CPU figures). */
  pid?: number;
  /** Every service process's id, when the bench started them (the CPU of the whole service). */
  pids?: number[];
  /** The operators' bearer secret for GET /metrics (the service serves no metrics without one). */
  metricsToken?: string;
  /** Warnings and errors the server logged while the bench ran. */
  problems: string[];
  stop(): Promise<void>;
};

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)$/;

export const isLoopback = (host: string) => LOOPBACK.test(host);

export function urlTarget(url: string, redisUrl?: string): Target {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:') throw new Error(`--url must be http:// (got ${parsed.protocol})`);
  return {
    kind: 'url',
    baseUrl: parsed.origin,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || 80),
    baseUrls: [parsed.origin],
    ports: [Number(parsed.port || 80)],
    redisUrl,
    metricsToken: process.env.METRICS_TOKEN || undefined,
    problems: [],
    stop: async () => {},
  };
}

/** Where seeding and Redis figures go: the target's single Redis or its cluster, when known. */
export function targetTopology(target: Target): RedisTopology | undefined {
  if (target.clusterNodes) return { kind: 'cluster', nodes: target.clusterNodes };
  return target.redisUrl ? { kind: 'single', url: target.redisUrl } : undefined;
}

/** The service's environment under the bench: a free port, a random metrics token, the load-capping limits raised. */
function benchServiceEnv(port: number, dataDir: string, metricsToken: string, redis: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_WORKER: 'true',
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: '3000',
    METRICS_TOKEN: metricsToken,
    // The bench's few agents do the work of thousands: per-account limits would cap the load, not the service.
    DISCOVERY_RATE_LIMIT: '100000',
    DISCOVERY_RATE_WINDOW_SECONDS: '1',
    LIKE_RATE_LIMIT: '100000',
    LIKE_RATE_WINDOW_SECONDS: '1',
    MESSAGE_RATE_LIMIT: '100000',
    MESSAGE_RATE_WINDOW_SECONDS: '1',
    // The spectator fleet holds 1,000 sockets per source address.
    MAX_CONNECTIONS_PER_IP: '5000',
    // The spectator scenario holds about a thousand sockets per loopback address, past the default cap.
    WS_MAX_PER_IP: '100000',
    // ... and opens them within seconds: past the default spectator upgrades per address and minute.
    SPECTATOR_UPGRADE_RATE_LIMIT: '100000',
    // The webhooks scenario's receiver listens on a loopback address.
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  delete env.REDIS_URL;
  delete env.REDIS_CLUSTER_NODES;
  return { ...env, ...redis };
}

type ServiceProcess = { child: ChildProcess; port: number; redisUrl?: string; problems: string[]; dataDir: string };

/**
 * `tsx src/main.ts serve` as a child process (with its in-process ranking worker), resolved once it listens.
 * The loader runs in the server's own process (node --import tsx) so that its CPU time is the server's.
 */
async function spawnService(metricsToken: string, redis: Record<string, string>, problems: string[], root = REPO_ROOT): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-match-bench-'));
  const port = await freePort();
  const child = spawnTs('src/main.ts', ['serve'], benchServiceEnv(port, dataDir, metricsToken, redis), false, root);
  let redisUrl: string | undefined;
  const stderr = createInterface({ input: child.stderr! });
  stderr.on('line', (line) => problems.length < 50 && problems.push(line));
  try {
    await waitForLine(
      child,
      (line) => {
        const entry = parseLogLine(line);
        if (typeof entry?.redis === 'string') redisUrl = entry.redis;
        return typeof entry?.msg === 'string' && entry.msg.startsWith('listening on') ? true : undefined;
      },
      60_000,
      'the service',
    );
  } catch (error) {
    await stopChild(child, 1_000);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  keepReadingProblems(child, problems);
  return { child, port, redisUrl, problems, dataDir };
}

/**
 * The embedded default: one service process on a free port with a throw-away DATA_DIR, its own
 * redis-server and the in-process ranking worker. `root`: the checkout whose service runs (the work tree by default).
 */
export async function startEmbeddedService(log: (line: string) => void, root = REPO_ROOT): Promise<Target> {
  const metricsToken = randomBytes(24).toString('hex');
  const problems: string[] = [];
  const { child, port, redisUrl, dataDir } = await spawnService(metricsToken, {}, problems, root);
  log(`service started: pid ${child.pid}, http://127.0.0.1:${port}, redis ${redisUrl ?? 'unknown'}, data in ${dataDir}`);
  return oneProcessTarget(child, port, redisUrl, metricsToken, problems, async () => {
    if (redisUrl) await shutdownOrphanRedis(redisUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });
}

/** A service of one process on `port`; `stop` stops the process, then runs `cleanup`. */
function oneProcessTarget(
  child: ChildProcess,
  port: number,
  redisUrl: string | undefined,
  metricsToken: string,
  problems: string[],
  cleanup: () => Promise<void>,
): Target {
  return {
    kind: 'embedded',
    baseUrl: `http://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    baseUrls: [`http://127.0.0.1:${port}`],
    ports: [port],
    redisUrl,
    pid: child.pid,
    pids: child.pid === undefined ? undefined : [child.pid],
    metricsToken,
    problems,
    stop: async () => {
      await stopChild(child, 8_000);
      await cleanup();
    },
  };
}

/**
 * The work tree's service on a redis-server of its own (append-only, `everysec`, as the embedded default)
 * with one replica, asking `replicasAck` replicas to confirm each acknowledged write (REDIS_MIN_REPLICAS_ACK):
 * `--replica-ack` measures the service with 0 and with 1 in turns. Both servers are stopped with it.
 */
export async function startReplicatedService(log: (line: string) => void, replicasAck: number): Promise<Target> {
  const redisDir = mkdtempSync(join(tmpdir(), 'agent-match-bench-redis-'));
  const master = await new RedisProcess({ dir: redisDir, persist: true }).start();
  const replica = await startRedisReplica(master.port).catch(async (error: Error) => {
    await master.stop();
    throw error;
  });
  const metricsToken = randomBytes(24).toString('hex');
  const problems: string[] = [];
  const env = { REDIS_URL: master.url, REDIS_MIN_REPLICAS_ACK: String(replicasAck) };
  const { child, port, dataDir } = await spawnService(metricsToken, env, problems).catch(async (error: Error) => {
    await replica.stop();
    await master.stop();
    throw error;
  });
  log(
    `service started: pid ${child.pid}, http://127.0.0.1:${port}, redis ${master.url} with a replica on ${replica.port}, REDIS_MIN_REPLICAS_ACK=${replicasAck}`,
  );
  return oneProcessTarget(child, port, master.url, metricsToken, problems, async () => {
    await replica.stop();
    await master.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(redisDir, { recursive: true, force: true });
  });
}

/**
 * `processes` service processes, each with its in-process ranking worker, pointed with REDIS_CLUSTER_NODES at
 * the cluster of `nodes` (left running at stop()), or at a three-master Redis Cluster of their own (AOF with
 * `appendfsync everysec`, as the embedded default; `replicas` replicas of each master, none by default)
 * stopped with them.
 */
export async function startClusterService(
  log: (line: string) => void,
  options: { processes?: number; nodes?: string[]; replicas?: number } = {},
): Promise<Target> {
  const processes = options.processes ?? 2;
  const own = options.nodes ? undefined : await startRedisCluster({ appendfsync: 'everysec', replicas: options.replicas ?? 0 });
  const nodes = options.nodes ?? own!.nodes;
  if (own)
    log(
      `Redis Cluster started: masters ${nodes.join(', ')}${own.replicas.length > 0 ? `, replicas ${own.replicas.map((r) => `${r.port} (of ${r.master})`).join(', ')}` : ''}`,
    );
  const metricsToken = randomBytes(24).toString('hex');
  const problems: string[] = [];
  const services: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(services.map((service) => stopChild(service.child, 8_000)));
    for (const service of services) rmSync(service.dataDir, { recursive: true, force: true });
    await own?.cleanup();
  };
  try {
    for (let i = 0; i < processes; i++) services.push(await spawnService(metricsToken, { REDIS_CLUSTER_NODES: nodes.join(',') }, problems));
  } catch (error) {
    await stop();
    throw error;
  }
  const baseUrls = services.map((service) => `http://127.0.0.1:${service.port}`);
  log(`service started: ${services.length} processes (pids ${services.map((s) => s.child.pid).join(', ')}) at ${baseUrls.join(', ')}`);
  return {
    kind: 'cluster',
    baseUrl: baseUrls[0]!,
    host: '127.0.0.1',
    port: services[0]!.port,
    baseUrls,
    ports: services.map((service) => service.port),
    clusterNodes: nodes,
    pid: services[0]!.child.pid,
    pids: services.flatMap((service) => (service.child.pid === undefined ? [] : [service.child.pid])),
    metricsToken,
    problems,
    stop,
  };
}

function parseLogLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Keeps the server's stdout drained, remembering warnings and errors (pino level 40 and up). */
function keepReadingProblems(child: ChildProcess, problems: string[]) {
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const entry = parseLogLine(line);
    if (entry && Number(entry.level) >= 40 && problems.length < 50) {
      const { level: _level, time: _time, pid: _pid, hostname: _hostname, msg, ...details } = entry;
      const err = details.err as { message?: string } | undefined;
      if (err?.message) details.err = err.message;
      problems.push(`${(msg as string | undefined) ?? ''} ${JSON.stringify(details)}`.slice(0, 300));
    }
  });
}

/** If the server died without stopping its embedded Redis, stop that Redis through its own protocol. */
async function shutdownOrphanRedis(url: string) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.call('SHUTDOWN', 'NOSAVE');
  } catch {
    // Gone already: nothing to do.
  } finally {
    redis.disconnect();
  }
}

/** The hello-world uWS child used as the HTTP ceiling. */
export async function startHelloServer(): Promise<{ port: number; pid?: number; stop(): Promise<void> }> {
  const child = spawnTs('bench/lib/hello-server.ts');
  const port = await waitForLine(
    child,
    (line) => {
      const entry = parseLogLine(line);
      return typeof entry?.port === 'number' ? entry.port : undefined;
    },
    20_000,
    'the hello-world server',
  );
  child.stdout!.resume();
  child.stderr!.resume();
  return { port, pid: child.pid, stop: () => stopChild(child, 2_000) };
}
