import { EventSocket, taggedBody, wsUrl } from '../lib/event-socket.js';
import { openFileLimit, processCpuSeconds } from '../lib/children.js';
import { measureFanOut, withServerCpu, type EventSource, type FanOutFigures, type FanOutResult } from '../lib/fan-out.js';
import { SocketFleet } from '../lib/fleet.js';
import { fetchMetrics } from '../lib/monitor.js';
import { sleep } from '../lib/phase.js';
import type { BenchAgent } from '../lib/population.js';
import { Recorder } from '../lib/recorder.js';
import { SocketIoBroadcastProcess } from '../lib/socketio-broadcast-process.js';
import type { SpectatorProtocol } from '../lib/spectator-clients.js';
import { emptyResult, type BenchContext, type Scenario, type ScenarioResult } from '../lib/types.js';

const STREAM = '/api/v1/spectator/stream';
const PAIRS = 10;
const SOCKETS_PER_ADDRESS = 1_000;

/**
 * Spectator fan-out: N spectator sockets held by several client processes, then messages sent
 * by matched agents. Measured: how fast the sockets open, server memory per idle connection, the latency
 * of each delivery and the time for an event to reach every socket (events sent one at a time), and
 * frames delivered per second (a burst of events). Then the same fleet, the same number of sockets and
 * the same events against a plain Socket.IO server that only broadcasts, for comparison.
 */
export const spectatorScenario: Scenario = {
  name: 'spectator',
  title: 'Spectator fan-out',
  summary:
    'thousands of /spectator/stream sockets over several processes; time for an event to reach all, frames/s vs a Socket.IO broadcast, memory per socket',
  async run(ctx) {
    const result = emptyResult(this);
    const total = ctx.options.spectators;
    if (total === 0) return { ...result, skipped: '--spectators is 0' };
    if (!ctx.hasRoute('POST', '/api/v1/matches/{match_id}/messages'))
      return { ...result, skipped: 'POST /api/v1/matches/{match_id}/messages is not served by the target' };
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
    const client = ctx.options.spectatorClient;
    const addresses = Array.from({ length: Math.ceil(total / SOCKETS_PER_ADDRESS) + processes }, () => ctx.addresses.next() ?? '').filter(Boolean);
    ctx.progress.info(`opening ${total} spectator sockets from ${processes} client processes (${client} client)…`);
    const fleet = await startFleet(ctx, processes);
    let ours: FanOutResult;
    try {
      const connected = await openSockets(ctx, result, fleet, { url, protocol: 'websocket', label: '', total, addresses });
      await sleep(2_000);
      const memoryAfter = await settledMemory(ctx);
      if (memoryBefore && memoryAfter) {
        const rssPerSocket = (memoryAfter.rss - memoryBefore.rss) / connected;
        result.figures.server_rss_before_sockets_bytes = memoryBefore.rss;
        result.figures.server_rss_with_sockets_bytes = memoryAfter.rss;
        result.figures.server_bytes_per_idle_socket =
          rssPerSocket > 0 ? rssPerSocket : 'not measurable in this run (the resident memory fell while the sockets opened)';
        result.figures.server_heap_bytes_per_idle_socket = (memoryAfter.heap - memoryBefore.heap) / connected;
        result.notes.push(
          "Memory per idle socket: the growth of the server's resident memory (and of its JS heap) from before the sockets opened to while they sat open, each read once it had settled, divided by the sockets; kernel socket buffers are not in it, and a garbage collection between the readings moves it.",
        );
      }
      ours = await measureFanOut(ctx, fleet, connected, serviceEvents(ctx, matches));
    } finally {
      await fleet.stop();
    }
    result.phases.push(...ours.phases);
    putFigures(result, '', ours.figures);
    result.figures.sockets_open_at_end = ours.open;
    const closes = Object.entries(ours.closes);
    if (closes.length > 0) result.notes.push(`Sockets closed during the run, by close code: ${closes.map(([code, n]) => `${code}×${n}`).join(', ')}.`);
    result.notes.push(
      `Latency runs from the bench writing the POST to a client process reading the frame (CLOCK_MONOTONIC, shared by every process). The client processes share the cores with the server, so fan-out figures include their cost: burst_client_cpu_seconds is their CPU during the burst, burst_server_cpu_seconds the service's.`,
    );

    if (!ctx.options.socketioComparison) return result;
    if (client !== 'lean') result.notes.push('The Socket.IO comparison needs the lean client (--spectator-client lean): not run.');
    else if (ours.sample === undefined) result.notes.push('The Socket.IO comparison needs one event frame of the service to copy: none arrived, not run.');
    else await compareWithSocketIo(ctx, result, { total, processes, addresses, sample: ours.sample, ours: ours.figures });
    return result;
  },
};

/** A fleet whose CPU is counted as the generator's (on top of what earlier fleets used). */
function startFleet(ctx: BenchContext, processes: number): Promise<SocketFleet> {
  const base = ctx.monitor.extraGeneratorCpu;
  return SocketFleet.start(processes, (seconds) => (ctx.monitor.extraGeneratorCpu = base + seconds));
}

/** Opens the fleet's sockets (the phase "connect"); returns how many opened, throws if none did. */
async function openSockets(
  ctx: BenchContext,
  result: ScenarioResult,
  fleet: SocketFleet,
  target: { url: string; protocol: SpectatorProtocol; label: string; total: number; addresses: string[]; serverCpuSeconds?: () => number | undefined },
): Promise<number> {
  const { url, protocol, label, total, addresses } = target;
  await fleet.frames();
  const mark = await ctx.monitor.mark();
  const serverCpuBefore = target.serverCpuSeconds?.();
  const started = performance.now();
  let lastShown = 0;
  const connect = await fleet.connect(url, total, addresses, { protocol, client: ctx.options.spectatorClient }, (connected, failed) => {
    if (performance.now() - lastShown < 1_000) return;
    lastShown = performance.now();
    ctx.progress.info(`  ${connected}/${total} open${failed ? `, ${failed} failed` : ''} after ${((performance.now() - started) / 1000).toFixed(0)}s`);
  });
  await fleet.frames();
  const measured = await ctx.monitor.since(mark);
  const window = target.serverCpuSeconds ? withServerCpu(measured, serverCpuBefore, target.serverCpuSeconds()) : measured;
  const opening = new Recorder();
  opening.merge('socket open', connect.opening.snapshot());
  opening.stop();
  const openStats = opening.stats('socket open');
  openStats.throughput = connect.connected / (connect.ms / 1000);
  if (connect.failed > 0) openStats.outcomes.failed = connect.failed;
  const processes = fleet.size === 1 ? 'one client process' : `${fleet.size} client processes`;
  result.phases.push({
    name: `${label}connect`,
    description: `${total} sockets opened by ${processes}, 64 handshakes in flight each`,
    operations: { 'socket open': openStats },
    window,
  });
  result.figures[label ? 'socketio_sockets_open' : 'spectator_sockets_open'] = connect.connected;
  if (connect.failed > 0 && connect.firstError) result.notes.push(`${label}${connect.failed} sockets failed to open; the first: ${connect.firstError}`);
  if (connect.connected === 0) throw new Error(`no ${label || 'spectator '}socket opened${connect.firstError ? `: ${connect.firstError}` : ''}`);
  return connect.connected;
}

/** Events of the service: a message POSTed by one of the matched agents, which every spectator is sent. */
function serviceEvents(ctx: BenchContext, matches: Array<[number, BenchAgent]>): EventSource {
  return {
    label: '',
    operation: 'POST message',
    noncePrefix: 's',
    monitored: true,
    serverCpuSeconds: () => processCpuSeconds(ctx.target.pid),
    async send(n, nonce) {
      const [match, from] = matches[n % matches.length]!;
      const res = await ctx.api.post(`/api/v1/matches/${match}/messages`, { token: from.token, body: { body: taggedBody(nonce, 'spectator fan-out') } });
      return res.status;
    },
  };
}

/**
 * The same fleet size, the same events (count, spacing, burst pattern) and an event of the same size and
 * shape (the service's own frame, its nonce replaced) against a plain Socket.IO server that only broadcasts.
 */
async function compareWithSocketIo(
  ctx: BenchContext,
  result: ScenarioResult,
  run: { total: number; processes: number; addresses: string[]; sample: string; ours: FanOutFigures },
) {
  const LABEL = 'Socket.IO: ';
  const frame = JSON.parse(run.sample) as { type?: string };
  const event = frame.type ?? 'message.created';
  ctx.progress.info(`the same against a Socket.IO broadcast server: ${run.total} sockets…`);
  const server = await SocketIoBroadcastProcess.start();
  try {
    const rssBefore = await server.rssBytes();
    const fleet = await startFleet(ctx, run.processes);
    let theirs: FanOutResult;
    try {
      const serverCpuSeconds = () => server.cpuSeconds;
      const connected = await openSockets(ctx, result, fleet, {
        url: server.url,
        protocol: 'engine.io',
        label: LABEL,
        total: run.total,
        addresses: run.addresses,
        serverCpuSeconds,
      });
      await sleep(2_000);
      const rssWith = await server.rssBytes();
      result.figures.socketio_server_bytes_per_idle_socket = (rssWith - rssBefore) / connected;
      result.notes.push(
        "socketio_server_bytes_per_idle_socket: the growth of the Socket.IO server's resident memory from before its sockets opened to 2 s after, one reading each (not settled as the service's is).",
      );
      theirs = await measureFanOut(ctx, fleet, connected, {
        label: LABEL,
        operation: 'io.emit',
        noncePrefix: 'i',
        monitored: false,
        serverCpuSeconds,
        async send(_n, nonce) {
          await server.emit(event, JSON.parse(run.sample.replace(/\[bench:[\w-]+\]/, `[bench:${nonce}]`)));
          return 200;
        },
      });
    } finally {
      await fleet.stop();
    }
    result.phases.push(...theirs.phases);
    putFigures(result, LABEL, theirs.figures);
    const closes = Object.entries(theirs.closes);
    if (closes.length > 0)
      result.notes.push(`Socket.IO sockets closed during the run, by close code: ${closes.map(([code, n]) => `${code}×${n}`).join(', ')}.`);
    if (run.ours.framesPerSecond !== undefined && theirs.figures.framesPerSecond)
      result.figures.frames_per_second_vs_socketio = run.ours.framesPerSecond / theirs.figures.framesPerSecond;
    if (run.ours.reachAllP99Ms !== undefined && theirs.figures.reachAllP99Ms)
      result.figures.event_reach_all_p99_vs_socketio = run.ours.reachAllP99Ms / theirs.figures.reachAllP99Ms;
    result.notes.push(
      "Socket.IO comparison: a plain Socket.IO 4 server in its own process (default settings, WebSocket transport only, no compression) with the same number of sockets from the same client processes, which speak Engine.IO v4 over WebSocket; each event is the service's own spectator frame, sent with io.emit under its type. " +
        'Not the same work: a service event goes through the whole service (HTTP POST, the write in Redis, pub/sub, the uWS topic) and its latency starts when the POST is written, while the Socket.IO server only broadcasts what the bench hands it over IPC. ' +
        "The service's fan-out alone (from its relay to the sockets) is not measured here. frames_per_second_vs_socketio = frames_per_second / socketio_frames_per_second; event_reach_all_p99_vs_socketio = event_reach_all_p99_ms / socketio_event_reach_all_p99_ms (below 1 is faster).",
    );
  } finally {
    await server.stop();
  }
}

const figurePrefix = (label: string) => (label ? 'socketio_' : '');

function putFigures(result: ScenarioResult, label: string, figures: FanOutFigures) {
  const prefix = figurePrefix(label);
  const put = (name: string, value: number | string | undefined) => value !== undefined && (result.figures[`${prefix}${name}`] = value);
  put('event_reach_all_p50_ms', figures.reachAllP50Ms);
  put('event_reach_all_p99_ms', figures.reachAllP99Ms);
  put('delivery_p99_ms', figures.deliveryP99Ms);
  put('spaced_delivered', figures.spacedDelivered);
  put('frames_per_second', figures.framesPerSecond);
  put('burst_delivered', figures.burstDelivered);
  put('burst_seconds', figures.burstSeconds);
  put('burst_client_cpu_seconds', figures.burstClientCpuSeconds);
  put('burst_server_cpu_seconds', figures.burstServerCpuSeconds);
  put('frame_bytes', figures.frameBytes);
}

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
