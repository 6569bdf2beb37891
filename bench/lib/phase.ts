import { startLoad, type ClientScript } from './http-load.js';
import type { Recorder } from './recorder.js';
import type { BenchContext, PhaseResult } from './types.js';
import { runWrk, wrkOperation, type WrkRun } from './wrk.js';
import type { WrkKind } from './wrk-script.js';

export type LoadPhaseSpec = {
  name: string;
  description: string;
  /** Label on the progress line. */
  label: string;
  connections: number;
  durationMs?: number;
  warmupMs?: number;
  maxRequests?: number;
  ratePerSecond?: number;
  requestTimeoutMs?: number;
  client: (index: number) => ClientScript | null;
  recorder?: Recorder;
};

/** Runs one load against the target and returns it as a phase, with the server's CPU, memory and event-loop figures over the measured window. */
export async function loadPhase(ctx: BenchContext, spec: LoadPhaseSpec): Promise<{ phase: PhaseResult; recorder: Recorder }> {
  const durationMs = spec.durationMs ?? ctx.options.duration * 1000;
  let mark: ReturnType<BenchContext['monitor']['mark']> | undefined;
  const handle = startLoad({
    host: ctx.target.host,
    port: ctx.target.port,
    ports: ctx.target.ports,
    connections: spec.connections,
    durationMs,
    warmupMs: spec.warmupMs ?? ctx.options.warmup * 1000,
    maxRequests: spec.maxRequests ?? ctx.options.maxRequests,
    ratePerSecond: spec.ratePerSecond,
    requestTimeoutMs: spec.requestTimeoutMs,
    client: spec.client,
    recorder: spec.recorder,
    onMeasure: () => {
      mark = ctx.monitor.mark();
    },
    onTick: (r, elapsed) => {
      if (ctx.aborted()) handle.stop();
      ctx.progress.tick(spec.label, r, elapsed, durationMs);
    },
  });
  const recorder = await handle.done;
  ctx.progress.endLive();
  const window = mark ? await ctx.monitor.since(await mark) : undefined;
  return {
    phase: { name: spec.name, description: spec.description, connections: spec.connections, operations: recorder.all(), window },
    recorder,
  };
}

/**
 * Runs wrk once against the target (every process of it) and returns it as a phase: the operation's figures
 * from wrk, the server's and Redis's CPU over the same window from the monitor, and wrk's own CPU in place of
 * the generator's (the bench process is idle meanwhile). Figures in the window's percent of one core.
 */
export async function wrkPhase(
  ctx: BenchContext,
  spec: { name: string; description: string; tag: string; agentsFile: string; kind: WrkKind; durationMs?: number },
): Promise<{ phase: PhaseResult; run: WrkRun }> {
  if (!('path' in ctx.wrk)) throw new Error(`wrk is not used in this run: ${ctx.wrk.missing}`);
  const durationMs = spec.durationMs ?? ctx.options.duration * 1000;
  ctx.progress.info(`[${spec.name}] wrk, ${ctx.options.wrkThreads} thread(s), ${ctx.options.wrkConnections} connections, ${durationMs / 1000}s…`);
  const mark = await ctx.monitor.mark();
  const run = await runWrk({
    wrk: ctx.wrk.path,
    script: ctx.wrk.script,
    agentsFile: spec.agentsFile,
    host: ctx.target.host,
    ports: ctx.target.ports,
    kind: spec.kind,
    threads: ctx.options.wrkThreads,
    connections: ctx.options.wrkConnections,
    durationMs,
  });
  const window = await ctx.monitor.since(mark);
  window.cpu.generator = run.cpuSeconds === undefined ? undefined : (100 * run.cpuSeconds) / window.seconds;
  return {
    phase: {
      name: spec.name,
      description: spec.description,
      connections: run.connections,
      generator: 'wrk',
      operations: { [spec.tag]: wrkOperation(run) },
      window,
    },
    run,
  };
}

/** CPU seconds of wrk, the server, Redis (on a cluster, every service process and every master too) and the whole machine over a wrk phase's window, as one line. */
export function wrkCpuLine(phase: PhaseResult): string {
  const window = phase.window;
  if (!window) return 'n/a';
  const seconds = (percent?: number) => (percent === undefined ? '?' : `${((percent * window.seconds) / 100).toFixed(2)} s`);
  const { server, redis, services, redises } = window.cpu;
  // On a Redis Cluster, every service process and every master besides the first process.
  const all = services !== server || redises !== redis ? `, every service process ${seconds(services)}, every Redis node ${seconds(redises)}` : '';
  return `wrk ${seconds(window.cpu.generator)}, server ${seconds(server)}, Redis ${seconds(redis)}${all}, whole machine ${seconds(window.cpu.machine)} in ${window.seconds.toFixed(2)} s`;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
