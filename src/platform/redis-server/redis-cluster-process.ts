import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keySlot from 'cluster-key-slot';
import { agreedView, clusterNodes, formCluster, poll, replicatedMaster, slotMaster, type NodeLine } from './redis-cluster-state.js';
import { REDIS_SERVER_SETTINGS } from './redis-settings.js';
import { startRedisWatchdog } from './redis-watchdog.js';

/** Redis Cluster nodes also listen on their port + 10000 (the cluster bus). */
const BUS_OFFSET = 10_000;

/** A replica and the master it follows (ports). */
export type ClusterReplica = { port: number; master: number };

export type RedisCluster = {
  /** `127.0.0.1:port` of every master at start, in the REDIS_CLUSTER_NODES form. */
  nodes: string[];
  /** The masters' ports at start. */
  ports: number[];
  /** Every replica at start, with the master it follows (none unless `replicas` was given). */
  replicas: ClusterReplica[];
  /** `redis://127.0.0.1:port` of the first master (a plain client connected to one node). */
  url: string;
  /** Kills the node on `port` (SIGKILL) and starts it again on the same port and data; waits until the cluster is ok. */
  restartNode: (port: number) => Promise<void>;
  /** Kills the node on `port` (SIGKILL) for good; resolves once it has exited. */
  kill: (port: number) => Promise<void>;
  /** Stops the node on `port` (SIGSTOP): connected but answering nothing, as a stalled or partitioned node. */
  pause: (port: number) => Promise<void>;
  /** Lets a paused node run again (SIGCONT). */
  resume: (port: number) => void;
  /**
   * Resolves with the port of the replica promoted in place of the master that was on `deadPort`, once it
   * is a master owning that master's slots and every live node (neither killed nor paused) says
   * cluster_state:ok and agrees. Rejects after `timeoutMs`.
   */
  waitForPromotion: (deadPort: number, timeoutMs?: number) => Promise<number>;
  /** Resolves with the master's port once the node on `port` is a replica in sync (master_link_status:up) that every live node knows as one. */
  waitForReplica: (port: number, timeoutMs?: number) => Promise<number>;
  /** The port of the master serving a key's slot (or a slot number), as a live node says now. */
  masterOf: (keyOrSlot: string | number) => Promise<number>;
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

/**
 * A port free on 127.0.0.1, with its bus port free too, not next to any of `taken`; it is added to `taken`
 * before the check, so that nodes started side by side never pick the same one.
 */
async function freeNodePort(taken: number[]): Promise<number> {
  const { low, high } = nodePortRange();
  for (;;) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (taken.some((other) => Math.abs(other - port) < 2)) continue;
    taken.push(port);
    if ((await portIsFree(port)) && (await portIsFree(port + BUS_OFFSET))) return port;
    taken.splice(taken.indexOf(port), 1);
  }
}

/** How often a node is started on another port when the one chosen was taken meanwhile (another test's node). */
const NODE_START_ATTEMPTS = 5;

export type RedisClusterOptions = {
  /** Masters (default 3). */
  masters?: number;
  /** Replicas of each master (default 0: a master's slots are served by no one while it is down). */
  replicas?: number;
  /** `cluster-node-timeout` of every node, ms (default: Redis's own, 15 s): a replica takes over about a second after it. */
  nodeTimeoutMs?: number;
  /**
   * `always` (default): every acknowledged write is on disk before its reply, so a node killed and started
   * again keeps it (the tests' restart check). `everysec`: the embedded default's durability (the bench).
   */
  appendfsync?: 'always' | 'everysec';
};

type NodeSettings = { appendfsync: 'always' | 'everysec'; nodeTimeoutMs?: number };

function startNode(port: number, dir: string, settings: NodeSettings): Promise<ChildProcess> {
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, 'nodes.conf'),
      ...(settings.nodeTimeoutMs === undefined ? [] : ['--cluster-node-timeout', String(settings.nodeTimeoutMs)]),
      // A replica's first sync starts at once rather than after the 5 s Redis waits for more replicas to share it.
      '--repl-diskless-sync-delay',
      '0',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      settings.appendfsync,
      ...REDIS_SERVER_SETTINGS,
      '--daemonize',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Stopped even when this process is killed before its cleanup runs (a paused node too: the watchdog wakes it).
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

/** The node processes of one cluster, and what a test does to them. */
class ClusterProcesses {
  private readonly children = new Map<number, ChildProcess>();
  private readonly killed = new Set<number>();
  private readonly paused = new Set<number>();
  /** The replicas of each master, as last seen: at start, then as a master says just before it is killed or paused. */
  private readonly followers = new Map<number, number[]>();
  /** Every node's port, masters first. */
  readonly all: number[] = [];
  private readonly taken: number[] = [];

  constructor(
    private readonly dir: string,
    private readonly settings: NodeSettings,
  ) {}

  /** Starts a node on a free port (another one if a node of another cluster took it meanwhile). */
  async start(): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const port = await freeNodePort(this.taken);
      try {
        this.children.set(port, await startNode(port, join(this.dir, String(port)), this.settings));
        return port;
      } catch (error) {
        if (attempt >= NODE_START_ATTEMPTS || !String(error).includes('Address already in use')) throw error;
      }
    }
  }

  follow(replicas: readonly ClusterReplica[]) {
    for (const { port, master } of replicas) this.followers.set(master, [...(this.followers.get(master) ?? []), port]);
  }

  /** The nodes neither killed nor paused. */
  live(): number[] {
    return this.all.filter((port) => !this.killed.has(port) && !this.paused.has(port));
  }

  async waitUntilOk(timeoutMs = 15_000): Promise<Map<number, NodeLine>> {
    return poll('cluster ok on every node', timeoutMs, () => agreedView(this.live(), this.all.length));
  }

  async restart(port: number) {
    await stopChild(this.child(port));
    this.children.set(port, await startNode(port, join(this.dir, String(port)), this.settings));
    this.killed.delete(port);
    this.paused.delete(port);
    await this.waitUntilOk();
  }

  async kill(port: number) {
    const child = this.child(port);
    await this.noteFollowers(port);
    this.killed.add(port);
    await stopChild(child);
  }

  async pause(port: number) {
    const child = this.child(port);
    await this.noteFollowers(port);
    this.paused.add(port);
    child.kill('SIGSTOP');
  }

  resume(port: number) {
    this.child(port).kill('SIGCONT');
    this.paused.delete(port);
  }

  waitForPromotion(deadPort: number, timeoutMs = 30_000): Promise<number> {
    return poll(`a replica of ${deadPort} promoted`, timeoutMs, async () => {
      const view = await agreedView(this.live(), this.all.length);
      if (!view || (view.get(deadPort)?.slots ?? 1) > 0) return undefined;
      const candidates = this.followers.get(deadPort) ?? [];
      return [...view.values()].find((node) => node.flags.includes('master') && node.slots > 0 && candidates.includes(node.port))?.port;
    });
  }

  waitForReplica(port: number, timeoutMs = 30_000): Promise<number> {
    return poll(`${port} a replica in sync`, timeoutMs, async () => {
      const master = await replicatedMaster(port);
      const view = master === undefined ? undefined : await agreedView(this.live(), this.all.length);
      const masterId = view?.get(master!)?.id;
      return masterId !== undefined && view!.get(port)?.master === masterId ? master : undefined;
    });
  }

  async cleanup() {
    await Promise.all([...this.children.values()].map(stopChild));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private child(port: number): ChildProcess {
    const child = this.children.get(port);
    if (!child) throw new Error(`no node of this cluster on port ${port}`);
    return child;
  }

  /** Reads which replicas follow the master on `port` now (a replica promoted earlier has replicas of its own). */
  private async noteFollowers(port: number) {
    const view = await clusterNodes(port).catch(() => []);
    const id = view.find((node) => node.port === port)?.id;
    const following = view.filter((node) => node.master === id).map((node) => node.port);
    if (id && following.length > 0) this.followers.set(port, following);
  }
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

/**
 * A real Redis Cluster of `masters` masters, each with `replicas` replicas, on free ports in a throw-away
 * directory: the tests' cluster and the bench's. It is returned once every node says cluster_state:ok and
 * they all agree on every node, and every replica is in sync. Each node is stopped by a watchdog if this
 * process dies before cleanup().
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const masterCount = options.masters ?? 3;
  const processes = new ClusterProcesses(mkdtempSync(join(tmpdir(), 'agent-match-cluster-')), {
    appendfsync: options.appendfsync ?? 'always',
    nodeTimeoutMs: options.nodeTimeoutMs,
  });
  try {
    processes.all.push(...(await Promise.all(Array.from({ length: masterCount * (1 + (options.replicas ?? 0)) }, () => processes.start()))));
    const ports = processes.all.slice(0, masterCount);
    const replicas = processes.all.slice(masterCount).map((port, n) => ({ port, master: ports[n % masterCount]! }));
    processes.follow(replicas);
    await formCluster(ports, replicas);
    await processes.waitUntilOk();
    await Promise.all(replicas.map(({ port }) => poll(`replica ${port} in sync`, 15_000, () => replicatedMaster(port))));
    return {
      nodes: ports.map((port) => `127.0.0.1:${port}`),
      ports,
      replicas,
      url: `redis://127.0.0.1:${ports[0]}`,
      restartNode: (port) => processes.restart(port),
      kill: (port) => processes.kill(port),
      pause: (port) => processes.pause(port),
      resume: (port) => processes.resume(port),
      waitForPromotion: (port, timeoutMs) => processes.waitForPromotion(port, timeoutMs),
      waitForReplica: (port, timeoutMs) => processes.waitForReplica(port, timeoutMs),
      masterOf: (keyOrSlot) => slotMaster(processes.live(), typeof keyOrSlot === 'number' ? keyOrSlot : keySlot(keyOrSlot)),
      cleanup: () => processes.cleanup(),
    };
  } catch (error) {
    await processes.cleanup();
    throw error;
  }
}
