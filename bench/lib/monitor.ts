import type { Redis } from 'ioredis';
import { machineBusyCpuSeconds, processCpuSeconds } from './children.js';

/** One reading of the server's GET /metrics. */
export type ServerMetrics = {
  rssBytes?: number;
  heapUsedBytes?: number;
  eventLoopDelayP99Ms?: number;
  /** Per `route status`: request count and total milliseconds spent, as the server measured them. */
  routes: Map<string, { count: number; sumMs: number }>;
};

export function parseMetrics(text: string): ServerMetrics {
  const metrics: ServerMetrics = { routes: new Map() };
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line) continue;
    const space = line.lastIndexOf(' ');
    const name = line.slice(0, space);
    const value = Number(line.slice(space + 1));
    if (name === 'process_resident_memory_bytes') metrics.rssBytes = value;
    else if (name === 'nodejs_heap_size_used_bytes' || name === 'nodejs_heap_used_bytes') metrics.heapUsedBytes = value;
    else if (name === 'nodejs_eventloop_delay_p99_ms') metrics.eventLoopDelayP99Ms = value;
    else if (name.startsWith('http_request_duration_ms_sum{') || name.startsWith('http_request_duration_ms_count{')) {
      const labels = /route="([^"]*)",status="([^"]*)"/.exec(name);
      if (!labels) continue;
      const key = `${labels[1]} ${labels[2]}`;
      const entry = metrics.routes.get(key) ?? { count: 0, sumMs: 0 };
      if (name.startsWith('http_request_duration_ms_sum')) entry.sumMs = value;
      else entry.count = value;
      metrics.routes.set(key, entry);
    }
  }
  return metrics;
}

export async function fetchMetrics(baseUrl: string, token?: string): Promise<ServerMetrics | undefined> {
  try {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const res = await fetch(`${baseUrl}/metrics`, { headers, signal: AbortSignal.timeout(3_000) });
    if (!res.ok) return undefined;
    return parseMetrics(await res.text());
  } catch {
    return undefined;
  }
}

/** Redis INFO fields as numbers (used_memory, used_cpu_user, …). */
export async function redisInfo(redis: Redis | undefined, section: string): Promise<Record<string, number>> {
  if (!redis) return {};
  const text = await redis.info(section);
  const out: Record<string, number> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const value = Number(line.slice(colon + 1));
      if (!Number.isNaN(value)) out[line.slice(0, colon)] = value;
    }
  }
  return out;
}

type Mark = {
  at: number;
  serverCpu?: number;
  redisCpu?: number;
  /** Every process of the service, and every Redis node it uses (one, or the masters of a cluster). */
  servicesCpu?: number;
  redisesCpu?: number;
  generatorCpu: number;
  extraCpu: number;
  machineCpu?: number;
  metrics?: ServerMetrics;
  sampleIndex: number;
};

export type Sample = { t: number; rssBytes?: number; eventLoopDelayP99Ms?: number; redisUsedMemory?: number };

export type WindowStats = {
  seconds: number;
  /**
   * CPU use in percent of one core, over the window; `machine`: every process on the machine (up to 100 × cores).
   * `server` and `redis` are the first service process and a single Redis; `services` and `redises` every
   * service process and every Redis node (on a single Redis, the same as `server` and `redis`).
   */
  cpu: { server?: number; redis?: number; services?: number; redises?: number; generator?: number; machine?: number };
  rss?: { start?: number; end?: number; max?: number };
  eventLoopDelayP99MaxMs?: number;
  /** Server-side mean latency and count per `route status` during the window. */
  serverRoutes: Record<string, { count: number; meanMs: number }>;
  samples: Sample[];
};

/** Every process of a service and every Redis node it uses, for their CPU between two marks. */
export type ServiceProcesses = { pids: readonly number[]; redisNodes: readonly Redis[] };

/**
 * Samples the target once a second (RSS and event-loop delay from /metrics, Redis memory) and reads CPU
 * time of the server (from /proc, when the bench started it), of Redis (INFO cpu), of the generator
 * itself and of the whole machine between two marks; given `all`, of every service process and every
 * Redis node too (a cluster's), else those are the server's and the single Redis's.
 */
export class Monitor {
  readonly samples: Sample[] = [];
  private timer?: NodeJS.Timeout;
  private readonly started = performance.now();
  /** CPU seconds used by helper processes of the generator (socket fleets), reported by them. */
  extraGeneratorCpu = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly serverPid: number | undefined,
    private readonly redis: Redis | undefined,
    private readonly metricsToken?: string,
    private readonly all?: ServiceProcesses,
  ) {}

  start() {
    const tick = async () => {
      const [metrics, memory] = await Promise.all([
        fetchMetrics(this.baseUrl, this.metricsToken),
        redisInfo(this.redis, 'memory').catch((): Record<string, number> => ({})),
      ]);
      this.samples.push({
        t: (performance.now() - this.started) / 1000,
        rssBytes: metrics?.rssBytes,
        eventLoopDelayP99Ms: metrics?.eventLoopDelayP99Ms,
        redisUsedMemory: memory.used_memory,
      });
      if (this.samples.length > 100_000) this.samples.splice(0, 50_000);
    };
    this.timer = setInterval(() => void tick(), 1_000);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
  }

  async mark(): Promise<Mark> {
    const [metrics, cpu, nodes] = await Promise.all([
      fetchMetrics(this.baseUrl, this.metricsToken),
      redisInfo(this.redis, 'cpu').catch((): Record<string, number> => ({})),
      Promise.all((this.all?.redisNodes ?? []).map((node) => redisInfo(node, 'cpu').catch((): Record<string, number> => ({})))),
    ]);
    const usage = process.cpuUsage();
    const serverCpu = processCpuSeconds(this.serverPid);
    const redisCpu = redisCpuSeconds(cpu);
    return {
      at: performance.now(),
      serverCpu,
      redisCpu,
      servicesCpu: this.all ? sumOrUndefined(this.all.pids.map((pid) => processCpuSeconds(pid))) : serverCpu,
      redisesCpu: this.all ? sumOrUndefined(nodes.map(redisCpuSeconds)) : redisCpu,
      generatorCpu: (usage.user + usage.system) / 1e6,
      extraCpu: this.extraGeneratorCpu,
      machineCpu: machineBusyCpuSeconds(),
      metrics,
      sampleIndex: this.samples.length,
    };
  }

  async since(start: Mark): Promise<WindowStats> {
    const end = await this.mark();
    const seconds = (end.at - start.at) / 1000;
    const percent = (a?: number, b?: number) => (a === undefined || b === undefined || seconds <= 0 ? undefined : (100 * (b - a)) / seconds);
    const samples = this.samples.slice(start.sampleIndex);
    const rssValues = samples.map((s) => s.rssBytes).filter((v): v is number => v !== undefined);
    const eld = samples.map((s) => s.eventLoopDelayP99Ms).filter((v): v is number => v !== undefined);
    if (end.metrics?.eventLoopDelayP99Ms !== undefined) eld.push(end.metrics.eventLoopDelayP99Ms);
    const serverRoutes: WindowStats['serverRoutes'] = {};
    for (const [key, after] of end.metrics?.routes ?? []) {
      const before = start.metrics?.routes.get(key) ?? { count: 0, sumMs: 0 };
      const count = after.count - before.count;
      if (count > 0) serverRoutes[key] = { count, meanMs: (after.sumMs - before.sumMs) / count };
    }
    return {
      seconds,
      cpu: {
        server: percent(start.serverCpu, end.serverCpu),
        redis: percent(start.redisCpu, end.redisCpu),
        services: percent(start.servicesCpu, end.servicesCpu),
        redises: percent(start.redisesCpu, end.redisesCpu),
        generator: percent(start.generatorCpu + start.extraCpu, end.generatorCpu + end.extraCpu),
        machine: percent(start.machineCpu, end.machineCpu),
      },
      rss: {
        start: start.metrics?.rssBytes,
        end: end.metrics?.rssBytes,
        max: rssValues.length > 0 || end.metrics?.rssBytes ? Math.max(...rssValues, end.metrics?.rssBytes ?? 0) : undefined,
      },
      eventLoopDelayP99MaxMs: eld.length > 0 ? Math.max(...eld) : undefined,
      serverRoutes,
      samples,
    };
  }
}

/** A Redis's CPU seconds from its INFO cpu (main thread and the others, user and system). */
const redisCpuSeconds = (cpu: Record<string, number>): number | undefined =>
  cpu.used_cpu_user !== undefined ? cpu.used_cpu_user + (cpu.used_cpu_sys ?? 0) : undefined;

/** The sum, or undefined when a value is missing or there is none. */
const sumOrUndefined = (values: ReadonlyArray<number | undefined>): number | undefined =>
  values.length === 0 || values.some((value) => value === undefined) ? undefined : values.reduce<number>((a, b) => a + b!, 0);

/**
 * Requests per second per core the service and its Redis used over a phase: the throughput divided by the
 * CPU of every service process and every Redis node (cores busy on average); undefined when either is unknown.
 */
export function perCore(throughput: number | undefined, window: WindowStats | undefined): number | undefined {
  const { services, redises } = window?.cpu ?? {};
  if (throughput === undefined || services === undefined || redises === undefined || services + redises <= 0) return undefined;
  return throughput / ((services + redises) / 100);
}

/** Least-squares slope of a sampled value, per minute; undefined with fewer than 5 samples. */
export function slopePerMinute(samples: Sample[], value: (s: Sample) => number | undefined): number | undefined {
  const points = samples.map((s) => [s.t, value(s)] as const).filter((p): p is readonly [number, number] => p[1] !== undefined);
  if (points.length < 5) return undefined;
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60;
}
