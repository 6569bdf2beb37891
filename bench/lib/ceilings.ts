import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';
import { machineBusyCpuSeconds, processCpuSeconds } from './children.js';
import { Histogram, summarize } from './histogram.js';
import { runLoad, type LoadRequest } from './http-load.js';
import type { LoopbackAddresses } from './loopback.js';
import type { Progress } from './progress.js';
import type { BenchContext, BenchOptions, Ceilings, WrkCeiling } from './types.js';
import { runWrk, wrkFailures, type WrkLoad } from './wrk.js';
import type { WrkAgent } from './wrk-script.js';
import { startHelloServer, type Target } from './target.js';

/** The trivial uWS route, kept running for the whole run so that a scenario can measure it again next to its own load. */
export class HelloCeiling {
  private constructor(
    private readonly server: Awaited<ReturnType<typeof startHelloServer>>,
    private readonly addresses: LoopbackAddresses,
  ) {}

  static async start(addresses: LoopbackAddresses): Promise<HelloCeiling> {
    return new HelloCeiling(await startHelloServer(), addresses);
  }

  /** Loads the route with `connections` keep-alive connections; CPU in percent of one core. */
  async measure(options: {
    connections: number;
    durationMs: number;
    warmupMs: number;
    maxRequests: number;
    progress?: Progress;
  }): Promise<NonNullable<Ceilings['hello']>> {
    const request: LoadRequest = { method: 'GET', path: '/', tag: 'GET / (hello)' };
    const startCpu = { server: 0, generator: 0, machine: 0 };
    const recorder = await runLoad({
      host: '127.0.0.1',
      port: this.server.port,
      connections: options.connections,
      durationMs: options.durationMs,
      warmupMs: options.warmupMs,
      maxRequests: options.maxRequests,
      client: () => ({ localAddress: this.addresses.next(), next: () => request }),
      onMeasure: () => {
        startCpu.server = processCpuSeconds(this.server.pid) ?? 0;
        startCpu.generator = cpuSeconds();
        startCpu.machine = machineBusyCpuSeconds() ?? NaN;
      },
      onTick: (r, elapsed) => options.progress?.tick('ceiling: uWS hello', r, elapsed, options.durationMs),
    });
    options.progress?.endLive();
    const seconds = Math.max(recorder.elapsedMs / 1000, 0.001);
    const stats = recorder.stats(request.tag!);
    const serverCpu = processCpuSeconds(this.server.pid);
    return {
      throughput: stats.throughput,
      latency: stats.latency,
      connections: options.connections,
      cpu: {
        server: serverCpu === undefined ? undefined : (100 * (serverCpu - startCpu.server)) / seconds,
        generator: (100 * (cpuSeconds() - startCpu.generator)) / seconds,
        machine: (100 * ((machineBusyCpuSeconds() ?? NaN) - startCpu.machine)) / seconds,
      },
    };
  }

  /** Loads the route with wrk and the swipes' Lua script (the route answers any method and path). */
  async measureWrk(load: Omit<WrkLoad, 'host' | 'ports' | 'kind'>): Promise<WrkCeiling> {
    const startCpu = processCpuSeconds(this.server.pid);
    const startMachine = machineBusyCpuSeconds();
    const started = performance.now();
    const run = await runWrk({ ...load, host: '127.0.0.1', ports: [this.server.port], kind: 'pass' });
    const seconds = (performance.now() - started) / 1000;
    const endCpu = processCpuSeconds(this.server.pid);
    const endMachine = machineBusyCpuSeconds();
    const serverSeconds = startCpu === undefined || endCpu === undefined ? undefined : endCpu - startCpu;
    const machineSeconds = startMachine === undefined || endMachine === undefined ? undefined : endMachine - startMachine;
    return {
      throughput: run.throughput,
      latency: run.latency,
      connections: run.connections,
      threads: run.threads,
      failures: wrkFailures(run),
      seconds,
      cpuSeconds: { server: serverSeconds, wrk: run.cpuSeconds, machine: machineSeconds },
      cpu: {
        server: serverSeconds === undefined ? undefined : (100 * serverSeconds) / seconds,
        wrk: run.cpuSeconds === undefined ? undefined : (100 * run.cpuSeconds) / seconds,
        machine: machineSeconds === undefined ? undefined : (100 * machineSeconds) / seconds,
      },
    };
  }

  stop() {
    return this.server.stop();
  }
}

/**
 * The figures that give the scenarios' numbers a meaning, measured in the same run on the same machine:
 * a trivial uWS route (the most any HTTP route here could do with this generator; with wrk too when it is
 * on PATH), the service's own /healthz, and a Redis PING.
 */
export async function measureCeilings(
  options: BenchOptions,
  target: Target,
  hello: HelloCeiling,
  addresses: LoopbackAddresses,
  progress: Progress,
  wrk: BenchContext['wrk'],
): Promise<Ceilings> {
  const ceilings: Ceilings = {};
  const durationMs = Math.min(options.duration, 10) * 1000;
  const warmupMs = options.warmup * 1000;

  progress.info(`trivial uWS route (own process), ${options.connections} keep-alive connections, ${durationMs / 1000}s…`);
  ceilings.hello = await hello.measure({ connections: options.connections, durationMs, warmupMs, maxRequests: options.maxRequests, progress });
  if ('path' in wrk) {
    progress.info(
      `the same route with wrk (${options.wrkThreads} thread(s), ${options.wrkConnections} connections, the swipes' Lua script), ${durationMs / 1000}s…`,
    );
    const agentsFile = wrk.script.writeAgents(syntheticAgents(options.agents));
    ceilings.helloWrk = await hello
      .measureWrk({ wrk: wrk.path, script: wrk.script, agentsFile, threads: options.wrkThreads, connections: options.wrkConnections, durationMs })
      .catch((error: Error) => ({ missing: `wrk failed: ${error.message}` }));
  } else {
    ceilings.helloWrk = { missing: wrk.missing };
  }

  progress.info(`the service's GET /healthz, same load…`);
  const healthz: LoadRequest = { method: 'GET', path: '/healthz' };
  const recorder = await runLoad({
    host: target.host,
    port: target.port,
    ports: target.ports,
    connections: options.connections,
    durationMs: Math.min(durationMs, 5_000),
    warmupMs,
    maxRequests: options.maxRequests,
    client: () => ({ localAddress: addresses.next(), next: () => healthz }),
    onTick: (r, elapsed) => progress.tick('ceiling: service /healthz', r, elapsed, Math.min(durationMs, 5_000)),
  });
  progress.endLive();
  const healthStats = recorder.stats('GET /healthz');
  ceilings.healthz = { throughput: healthStats.throughput, latency: healthStats.latency };

  ceilings.redis = await measureRedis(target.redisUrl, Math.min(durationMs, 3_000), progress);
  return ceilings;
}

/** Agents of the shape the swipes give wrk (a JWT-sized token, every other agent's id), for the opening ceiling. */
function syntheticAgents(count: number): WrkAgent[] {
  const ids = Array.from({ length: count }, (_, i) => 100_000 + i);
  return ids.map((id) => ({ token: `eyJ${randomBytes(150).toString('base64url')}`, targets: ids.filter((other) => other !== id) }));
}

const cpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** PING round trip on one connection in lock-step, then throughput with 16 connections, one PING in flight each. */
async function measureRedis(redisUrl: string | undefined, durationMs: number, progress: Progress): Promise<Ceilings['redis']> {
  let privateRedis: PrivateRedis | undefined;
  let url = redisUrl;
  let source = "the service's Redis";
  if (!url) {
    privateRedis = await startPrivateRedis('agent-match-bench-redis');
    url = privateRedis.url;
    source = 'a private redis-server on this machine (the target Redis is unknown: pass --redis-url)';
  }
  const connections = 16;
  const clients = Array.from({ length: connections }, () => new Redis(url, { enableAutoPipelining: false, lazyConnect: true }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    progress.info(`Redis PING round trip and throughput (${connections} connections, one PING in flight each)…`);
    const roundTrip = new Histogram();
    const first = clients[0]!;
    const rttDeadline = performance.now() + Math.min(1_000, durationMs);
    while (performance.now() < rttDeadline) {
      const t = performance.now();
      await first.ping();
      roundTrip.record(performance.now() - t);
    }
    let count = 0;
    const started = performance.now();
    const deadline = started + durationMs;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < deadline) {
          await client.ping();
          count++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { source, roundTrip: summarize(roundTrip), throughput: count / seconds, connections };
  } finally {
    for (const client of clients) client.disconnect();
    await privateRedis?.stop();
  }
}
