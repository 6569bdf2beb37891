import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REDIS_SERVER_SETTINGS } from './redis-settings.js';
import { startRedisWatchdog } from './redis-watchdog.js';

const run = promisify(execFile);

/** Redis Cluster nodes also listen on their port + 10000 (the cluster bus). */
const BUS_OFFSET = 10_000;

export type RedisCluster = {
  /** `127.0.0.1:port` of every master, in the REDIS_CLUSTER_NODES form. */
  nodes: string[];
  ports: number[];
  /** `redis://127.0.0.1:port` of the first master (a plain client connected to one node). */
  url: string;
  /** Kills the master on `port` (SIGKILL) and starts it again on the same port and data: no failover (no replicas). */
  restartNode: (port: number) => Promise<void>;
  cleanup: () => Promise<void>;
};

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The ports a node may take: below the range the system hands out to outgoing connections (Linux's
 * ip_local_port_range), bus port included, so no client socket can take a node's port between the check
 * and the bind, nor while a node is restarted on its port.
 */
function nodePortRange(): { low: number; high: number } {
  const low = 10_000;
  try {
    const [ephemeralLow] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (ephemeralLow && ephemeralLow - BUS_OFFSET - 1 > low + 1_000) return { low, high: ephemeralLow - BUS_OFFSET - 1 };
  } catch {
    // not Linux: any port whose bus port exists
  }
  return { low: 20_000, high: 65_535 - BUS_OFFSET };
}

/** A port free on 127.0.0.1, with its bus port free too, not next to any of `taken`. */
async function freeNodePort(taken: readonly number[]): Promise<number> {
  const { low, high } = nodePortRange();
  for (;;) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (taken.some((other) => Math.abs(other - port) < 2)) continue;
    if ((await portIsFree(port)) && (await portIsFree(port + BUS_OFFSET))) return port;
  }
}

/** How often a node is started on another port when the one chosen was taken meanwhile (another test's node). */
const NODE_START_ATTEMPTS = 5;

export type RedisClusterOptions = {
  /** Masters (default 3). */
  masters?: number;
  /**
   * `always` (default): every acknowledged write is on disk before its reply, so a node killed and started
   * again keeps it (the tests' restart check). `everysec`: the embedded default's durability (the bench).
   */
  appendfsync?: 'always' | 'everysec';
};

function startNode(port: number, dir: string, appendfsync: 'always' | 'everysec'): Promise<ChildProcess> {
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'),
      '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', appendfsync, ...REDIS_SERVER_SETTINGS, '--daemonize', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Stopped even when this process is killed before its cleanup runs.
  if (child.pid !== undefined) {
    const watchdog = startRedisWatchdog(child.pid);
    child.once('exit', () => watchdog.kill('SIGKILL'));
  }
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`cluster node ${port} did not start: ${output.slice(-500)}`)), 10_000);
    child.stderr.resume();
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cluster node ${port} exited with ${code}: ${output.slice(-500)}`));
    });
  });
}

async function waitForClusterOk(ports: number[]) {
  const deadline = Date.now() + 15_000;
  for (const port of ports) {
    for (;;) {
      const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
      if (stdout.includes('cluster_state:ok')) break;
      if (Date.now() > deadline) throw new Error(`cluster node ${port} is not ok:\n${stdout}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A real Redis Cluster of `masters` masters (no replicas) on free ports in a throw-away directory: the tests'
 * cluster and the bench's. Each node is stopped by a watchdog if this process dies before cleanup().
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const appendfsync = options.appendfsync ?? 'always';
  const dir = mkdtempSync(join(tmpdir(), 'agent-match-cluster-'));
  const children: ChildProcess[] = [];
  const nodeDirs = new Map<number, string>();
  const cleanup = async () => {
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    await Promise.all(
      running.map(
        (child) =>
          new Promise<void>((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    while (ports.length < (options.masters ?? 3)) {
      for (let attempt = 1; ; attempt++) {
        const port = await freeNodePort(ports);
        try {
          children.push(await startNode(port, join(dir, String(port)), appendfsync));
          nodeDirs.set(port, join(dir, String(port)));
          ports.push(port);
          break;
        } catch (error) {
          if (attempt >= NODE_START_ATTEMPTS || !String(error).includes('Address already in use')) throw error;
        }
      }
    }
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    await waitForClusterOk(ports);
    const restartNode = async (port: number) => {
      const at = ports.indexOf(port);
      const child = children[at]!;
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        });
      }
      children[at] = await startNode(port, nodeDirs.get(port)!, appendfsync);
      await waitForClusterOk(ports);
    };
    return { nodes, ports, url: `redis://127.0.0.1:${ports[0]}`, restartNode, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
