/**
 * The fan-out measurement of the spectator scenario, the same for any server a socket fleet is connected
 * to: events one at a time (latency of each delivery, time for each event to reach every socket), then a
 * burst of events several in flight (frames delivered per second), with the CPU the client processes and
 * the server used during the burst.
 */
import type { SocketFleet } from './fleet.js';
import type { WindowStats } from './monitor.js';
import { sleep } from './phase.js';
import { Recorder } from './recorder.js';
import type { BenchContext, PhaseResult } from './types.js';

export const SPACED_EVENTS = 20;
export const SPACING_MS = 250;
export const BURST_EVENTS = 100;
export const BURST_IN_FLIGHT = 8;

/** Where the events come from. */
export type EventSource = {
  /** Prefix of the phase names ('' for the service). */
  label: string;
  /** The operation one event costs the bench ('POST message', …), timed per event. */
  operation: string;
  /** Sends event `n` carrying `nonce`; resolves with a status for the recorder when the source accepted it. */
  send(n: number, nonce: string): Promise<number>;
  /** The server's CPU seconds so far, when known. */
  serverCpuSeconds(): number | undefined;
  /**
   * True for the service, whose CPU, RSS and event-loop delay the bench's monitor reads; otherwise the
   * phase windows show this source's server CPU in their place.
   */
  monitored: boolean;
  /** Distinguishes this source's nonces from another's in the same run. */
  noncePrefix: string;
};

export type FanOutFigures = {
  reachAllP50Ms?: number;
  reachAllP99Ms?: number;
  deliveryP99Ms?: number;
  spacedDelivered?: string;
  framesPerSecond?: number;
  burstDelivered?: string;
  burstSeconds?: number;
  burstClientCpuSeconds?: number;
  burstServerCpuSeconds?: number;
  /** Bytes of one event frame's payload as a socket read it. */
  frameBytes?: number;
};

export type FanOutResult = { phases: PhaseResult[]; figures: FanOutFigures; open: number; closes: Record<string, number>; sample?: string };

export async function measureFanOut(ctx: BenchContext, fleet: SocketFleet, sockets: number, source: EventSource): Promise<FanOutResult> {
  const sent: Record<string, number> = {};
  const groups: Record<string, string> = {};
  const posting = { spaced: new Recorder(), burst: new Recorder() };
  const send = async (group: 'spaced' | 'burst', n: number) => {
    const nonce = `${ctx.runId}-${source.noncePrefix}${group[0]}${n}`;
    groups[nonce] = group;
    const t = performance.now();
    sent[nonce] = Number(process.hrtime.bigint());
    const status = await source.send(n, nonce);
    posting[group].record(source.operation, status, performance.now() - t);
  };
  const window = async (mark: Awaited<ReturnType<BenchContext['monitor']['mark']>>, serverCpuBefore: number | undefined) => {
    await fleet.frames();
    const stats = await ctx.monitor.since(mark);
    return source.monitored ? stats : withServerCpu(stats, serverCpuBefore, source.serverCpuSeconds());
  };

  ctx.progress.info(`${source.label}${SPACED_EVENTS} events one at a time, ${SPACING_MS} ms apart…`);
  const framesAtStart = await fleet.frames();
  const spacedMark = await ctx.monitor.mark();
  const spacedServerCpu = source.serverCpuSeconds();
  for (let n = 0; n < SPACED_EVENTS && !ctx.aborted(); n++) {
    await send('spaced', n);
    await sleep(SPACING_MS);
  }
  await waitForFrames(ctx, fleet, framesAtStart + sockets * SPACED_EVENTS, 10_000);
  const spacedWindow = await window(spacedMark, spacedServerCpu);
  posting.spaced.stop();

  ctx.progress.info(`${source.label}a burst of ${BURST_EVENTS} events, ${BURST_IN_FLIGHT} in flight…`);
  const framesBefore = await fleet.frames();
  const clientCpuBefore = fleet.cpuSeconds;
  const burstMark = await ctx.monitor.mark();
  const burstServerCpu = source.serverCpuSeconds();
  const burstStartNs = Number(process.hrtime.bigint());
  let next = 0;
  await Promise.all(
    Array.from({ length: BURST_IN_FLIGHT }, async () => {
      while (next < BURST_EVENTS) await send('burst', next++);
    }),
  );
  await waitForFrames(ctx, fleet, framesBefore + sockets * BURST_EVENTS, 60_000);
  // Both as of the last frame count (which refreshed the fleet's CPU).
  const clientCpuAfter = fleet.cpuSeconds;
  const serverCpuAfter = source.serverCpuSeconds();
  const burstWindow = await window(burstMark, burstServerCpu);
  posting.burst.stop();

  const report = await fleet.report(sent, groups);
  const figures: FanOutFigures = { frameBytes: report.sample === undefined ? undefined : Buffer.byteLength(report.sample) };
  const phases: PhaseResult[] = [];
  const spaced = report.groups.spaced;
  const burst = report.groups.burst;
  if (spaced) {
    const r = new Recorder();
    r.merge('delivery (each socket)', spaced.deliveries.snapshot());
    r.merge('reach all sockets (each event)', spaced.reachAll.snapshot());
    r.stop();
    const operations = { ...posting.spaced.all(), ...r.all() };
    operations['delivery (each socket)']!.throughput = spaced.delivered / spacedWindow.seconds;
    operations['reach all sockets (each event)']!.throughput = NaN;
    phases.push({
      name: `${source.label}one event at a time`,
      description: `${SPACED_EVENTS} events ${SPACING_MS} ms apart to ${sockets} sockets; latency = ${source.operation} started → frame read`,
      operations,
      window: spacedWindow,
    });
    figures.reachAllP50Ms = spaced.reachAll.percentile(50);
    figures.reachAllP99Ms = spaced.reachAll.percentile(99);
    figures.deliveryP99Ms = spaced.deliveries.percentile(99);
    figures.spacedDelivered = `${spaced.delivered}/${sockets * SPACED_EVENTS}`;
  }
  if (burst) {
    const r = new Recorder();
    r.merge('delivery (each socket)', burst.deliveries.snapshot());
    r.stop();
    const seconds = (burst.lastArrivalNs - burstStartNs) / 1e9;
    const operations = { ...posting.burst.all(), ...r.all() };
    operations['delivery (each socket)']!.throughput = burst.delivered / seconds;
    phases.push({
      name: `${source.label}burst`,
      description: `${BURST_EVENTS} events, ${BURST_IN_FLIGHT} in flight, to ${sockets} sockets; delivery req/s = frames delivered per second`,
      operations,
      window: burstWindow,
    });
    figures.framesPerSecond = burst.delivered / seconds;
    figures.burstDelivered = `${burst.delivered}/${sockets * BURST_EVENTS}`;
    figures.burstSeconds = seconds;
    figures.burstClientCpuSeconds = clientCpuAfter - clientCpuBefore;
    if (burstServerCpu !== undefined && serverCpuAfter !== undefined) figures.burstServerCpuSeconds = serverCpuAfter - burstServerCpu;
  }
  return { phases, figures, open: report.open, closes: report.closes, sample: report.sample };
}

/** A window whose server columns are another server's: its CPU, and no RSS or event-loop delay of the service. */
export function withServerCpu(stats: WindowStats, before: number | undefined, after: number | undefined): WindowStats {
  const server = before === undefined || after === undefined || stats.seconds <= 0 ? undefined : (100 * (after - before)) / stats.seconds;
  return { ...stats, cpu: { ...stats.cpu, server, redis: undefined }, rss: undefined, eventLoopDelayP99MaxMs: undefined };
}

/** Waits until the fleet has read `expected` frames in all, or nothing new arrived for 2 s, or `timeoutMs`. */
async function waitForFrames(ctx: BenchContext, fleet: SocketFleet, expected: number, timeoutMs: number) {
  const started = performance.now();
  let last = -1;
  let still = 0;
  while (performance.now() - started < timeoutMs) {
    const frames = await fleet.frames();
    if (frames >= expected) return;
    still = frames === last ? still + 1 : 0;
    if (still >= 8) break;
    last = frames;
    await sleep(250);
  }
  ctx.progress.info(`not every frame arrived (${last} of ${expected} read)`);
}
