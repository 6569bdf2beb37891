import { EventSocket, taggedBody, wsUrl } from '../lib/event-socket.js';
import { openFileLimit } from '../lib/children.js';
import { SocketFleet } from '../lib/fleet.js';
import { fetchMetrics } from '../lib/monitor.js';
import { sleep } from '../lib/phase.js';
import type { BenchAgent } from '../lib/population.js';
import { Recorder } from '../lib/recorder.js';
import { emptyResult, type BenchContext, type Scenario } from '../lib/types.js';

const STREAM = '/api/v1/spectator/stream';
const PAIRS = 10;
const SPACED_EVENTS = 20;
const SPACING_MS = 250;
const BURST_EVENTS = 100;
const SOCKETS_PER_ADDRESS = 1_000;

/**
 * Spectator fan-out: N spectator sockets held by several client processes, then messages sent
 * by matched agents. Measured: how fast the sockets open, server memory per idle connection, the latency
 * of each delivery and the time for an event to reach every socket (events sent one at a time), and
 * frames delivered per second (a burst of events).
 */
export const spectatorScenario: Scenario = {
  name: 'spectator',
  title: 'Spectator fan-out',
  summary: 'thousands of /spectator/stream sockets over several processes; time for an event to reach all, frames/s, memory per socket',
  async run(ctx) {
    const result = emptyResult(this);
    const total = ctx.options.spectators;
    if (total === 0) return { ...result, skipped: '--spectators is 0' };
    if (!ctx.hasRoute('POST', '/api/v1/matches/{match_id}/messages')) return { ...result, skipped: 'POST /api/v1/matches/{match_id}/messages is not served by the target' };
    const url = wsUrl(ctx.target.baseUrl, STREAM);
    try {
      (await EventSocket.open(url)).close();
    } catch (error) {
      return { ...result, skipped: `${STREAM} does not open: ${(error as Error).message}` };
    }

    const limit = openFileLimit(ctx.target.pid);
    if (limit !== undefined && total + 500 > limit) {
      const note = `the server may hold at most ${limit} open files, fewer than ${total} sockets need with some to spare: expect failed connections (raise its limit: ulimit -n)`;
      ctx.progress.info(note);
      result.notes.push(note);
    }
    const matches = await matchedPairs(ctx, PAIRS);
    await sleep(1_000);
    const memoryBefore = await settledMemory(ctx);

    const processes = Math.min(ctx.options.wsProcesses, total);
    ctx.progress.info(`opening ${total} spectator sockets from ${processes} client processes…`);
    const fleet = await SocketFleet.start(processes);
    const cpuBefore = ctx.monitor.extraGeneratorCpu;
    /** Counts the client processes' CPU as the generator's, as of now. */
    const fleetCpu = async () => {
      await fleet.frames();
      ctx.monitor.extraGeneratorCpu = cpuBefore + fleet.cpuSeconds;
    };
    try {
      const addresses = Array.from({ length: Math.ceil(total / SOCKETS_PER_ADDRESS) + processes }, () => ctx.addresses.next() ?? '');
      await fleetCpu();
      const connectMark = await ctx.monitor.mark();
      const started = performance.now();
      let lastShown = 0;
      const connect = await fleet.connect(url, total, addresses.filter(Boolean), (connected, failed) => {
        if (performance.now() - lastShown < 1_000) return;
        lastShown = performance.now();
        ctx.progress.info(`  ${connected}/${total} open${failed ? `, ${failed} failed` : ''} after ${((performance.now() - started) / 1000).toFixed(0)}s`);
      });
      await fleetCpu();
      const connectWindow = await ctx.monitor.since(connectMark);
      const opening = new Recorder();
      opening.merge('socket open', connect.opening.snapshot());
      opening.stop();
      const openStats = opening.stats('socket open');
      openStats.throughput = connect.connected / (connect.ms / 1000);
      if (connect.failed > 0) openStats.outcomes.failed = connect.failed;
      result.phases.push({ name: 'connect', description: `${total} sockets opened by ${processes} client process${processes === 1 ? '' : 'es'}, 64 handshakes in flight each`, operations: { 'socket open': openStats }, window: connectWindow });
      result.figures.spectator_sockets_open = connect.connected;
      if (connect.connected === 0) throw new Error('no spectator socket opened');

      await sleep(2_000);
      const memoryAfter = await settledMemory(ctx);
      if (memoryBefore && memoryAfter) {
        const rssPerSocket = (memoryAfter.rss - memoryBefore.rss) / connect.connected;
        result.figures.server_rss_before_sockets_bytes = memoryBefore.rss;
        result.figures.server_rss_with_sockets_bytes = memoryAfter.rss;
        result.figures.server_bytes_per_idle_socket = rssPerSocket > 0 ? rssPerSocket : 'not measurable in this run (the resident memory fell while the sockets opened)';
        result.figures.server_heap_bytes_per_idle_socket = (memoryAfter.heap - memoryBefore.heap) / connect.connected;
        result.notes.push(
          'Memory per idle socket: the growth of the server\'s resident memory (and of its JS heap) from before the sockets opened to while they sat open, each read once it had settled, divided by the sockets; kernel socket buffers are not in it, and a garbage collection between the readings moves it.',
        );
      }

      const sent: Record<string, number> = {};
      const groups: Record<string, string> = {};
      const posting = { spaced: new Recorder(), burst: new Recorder() };
      const send = async (group: 'spaced' | 'burst', n: number) => {
        const [match, from] = matches[n % matches.length]!;
        const nonce = `${ctx.runId}-s${group[0]}${n}`;
        groups[nonce] = group;
        const t = performance.now();
        sent[nonce] = Number(process.hrtime.bigint());
        const res = await ctx.api.post(`/api/v1/matches/${match}/messages`, { token: from.token, body: { body: taggedBody(nonce, 'spectator fan-out') } });
        posting[group].record('POST message', res.status, performance.now() - t);
      };

      ctx.progress.info(`${SPACED_EVENTS} events one at a time, ${SPACING_MS} ms apart…`);
      await fleetCpu();
      const spacedMark = await ctx.monitor.mark();
      for (let n = 0; n < SPACED_EVENTS && !ctx.aborted(); n++) {
        await send('spaced', n);
        await sleep(SPACING_MS);
      }
      await waitForFrames(ctx, fleet, connect.connected * SPACED_EVENTS, 10_000);
      await fleetCpu();
      const spacedWindow = await ctx.monitor.since(spacedMark);
      posting.spaced.stop();

      ctx.progress.info(`a burst of ${BURST_EVENTS} events, 8 in flight…`);
      const framesBefore = await fleet.frames();
      const burstMark = await ctx.monitor.mark();
      const burstStartNs = Number(process.hrtime.bigint());
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < BURST_EVENTS) await send('burst', next++);
        }),
      );
      await waitForFrames(ctx, fleet, framesBefore + connect.connected * BURST_EVENTS, 60_000);
      await fleetCpu();
      const burstWindow = await ctx.monitor.since(burstMark);
      posting.burst.stop();

      const report = await fleet.report(sent, groups);
      ctx.monitor.extraGeneratorCpu = cpuBefore + report.cpuSeconds;
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
        result.phases.push({
          name: 'one event at a time',
          description: `${SPACED_EVENTS} messages ${SPACING_MS} ms apart to ${connect.connected} spectators; latency = POST written → frame read`,
          operations,
          window: spacedWindow,
        });
        result.figures.event_reach_all_p50_ms = spaced.reachAll.percentile(50);
        result.figures.event_reach_all_p99_ms = spaced.reachAll.percentile(99);
        result.figures.delivery_p99_ms = spaced.deliveries.percentile(99);
        result.figures.spaced_delivered = `${spaced.delivered}/${connect.connected * SPACED_EVENTS}`;
      }
      if (burst) {
        const r = new Recorder();
        r.merge('delivery (each socket)', burst.deliveries.snapshot());
        r.stop();
        const seconds = (burst.lastArrivalNs - burstStartNs) / 1e9;
        const operations = { ...posting.burst.all(), ...r.all() };
        operations['delivery (each socket)']!.throughput = burst.delivered / seconds;
        result.phases.push({
          name: 'burst',
          description: `${BURST_EVENTS} messages, 8 in flight, to ${connect.connected} spectators; delivery req/s = frames delivered per second`,
          operations,
          window: burstWindow,
        });
        result.figures.frames_per_second = burst.delivered / seconds;
        result.figures.burst_delivered = `${burst.delivered}/${connect.connected * BURST_EVENTS}`;
      }
      result.figures.sockets_open_at_end = report.open;
      const closes = Object.entries(report.closes);
      if (closes.length > 0) result.notes.push(`Sockets closed during the run, by close code: ${closes.map(([code, n]) => `${code}×${n}`).join(', ')}.`);
      result.notes.push(
        `Latency runs from the bench writing the POST to a client process reading the frame (CLOCK_MONOTONIC, shared by every process). The client processes share the cores with the server, so fan-out figures include their cost.`,
      );
      return result;
    } finally {
      await fleet.stop();
    }
  },
};

/** `count` matched pairs: [match id, a participant who sends]. */
async function matchedPairs(ctx: BenchContext, count: number): Promise<Array<[number, BenchAgent]>> {
  const agents = await ctx.population.take(count * 2, 'spectator events');
  const out: Array<[number, BenchAgent]> = [];
  for (let i = 0; i < count; i++) {
    const [a, b] = [agents[2 * i]!, agents[2 * i + 1]!];
    await ctx.api.post(`/api/v1/likes/${b.id}?kind=like`, { token: a.token });
    const res = await ctx.api.post(`/api/v1/likes/${a.id}?kind=like`, { token: b.token });
    if (res.status !== 200 || !res.body?.match?.id) throw new Error(`could not match a pair: ${res.status} ${res.text.slice(0, 200)}`);
    out.push([res.body.match.id as number, i % 2 === 0 ? a : b]);
  }
  return out;
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

/**
 * The server's memory once it has settled: readings half a second apart until RSS moves by less than
 * 1 MiB between two of them (at most 8 s), so that a collection in flight does not pass for sockets.
 */
async function settledMemory(ctx: BenchContext): Promise<{ rss: number; heap: number } | undefined> {
  let last: { rss: number; heap: number } | undefined;
  const started = performance.now();
  while (performance.now() - started < 8_000) {
    const metrics = await fetchMetrics(ctx.target.baseUrl, ctx.target.metricsToken);
    if (metrics?.rssBytes === undefined) return undefined;
    const now = { rss: metrics.rssBytes, heap: metrics.heapUsedBytes ?? 0 };
    if (last && Math.abs(now.rss - last.rss) < 1024 * 1024) return now;
    last = now;
    await sleep(500);
  }
  return last;
}
