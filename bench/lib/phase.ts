import { startLoad, type ClientScript } from './http-load.js';
import type { Recorder } from './recorder.js';
import type { BenchContext, PhaseResult } from './types.js';

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

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
