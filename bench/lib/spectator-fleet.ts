/**
 * A child process holding many spectator sockets (a process may hold at most ~20,000 open files, and
 * one process's JS would otherwise be the bottleneck). Driven over IPC by the spectator scenario:
 *   {cmd: 'connect', url, count, addresses, concurrency, protocol, client} → progress {type: 'connected', connected, failed, ms}
 *   {cmd: 'report', sent: {nonce: hrtime ns}}          → {type: 'report', ...per-event arrival figures}
 *   {cmd: 'close'}                                     → closes every socket and exits
 * Times are process.hrtime (CLOCK_MONOTONIC), which every process on the machine shares.
 */
import { Histogram, type HistogramSnapshot } from './histogram.js';
import { openSpectatorClient, type SpectatorClient, type SpectatorClientKind, type SpectatorProtocol } from './spectator-clients.js';

type ConnectCommand = {
  cmd: 'connect';
  url: string;
  count: number;
  addresses: string[];
  concurrency: number;
  protocol: SpectatorProtocol;
  client: SpectatorClientKind;
};
type ReportCommand = { cmd: 'report'; sent: Record<string, number>; groups: Record<string, string> };
type Command = ConnectCommand | ReportCommand | { cmd: 'frames' } | { cmd: 'close' };

const sockets: SpectatorClient[] = [];
/** nonce → arrival times (ns), one per socket that received it. */
const arrivals = new Map<string, number[]>();
const closes: Record<string, number> = {};
let frames = 0;
/** The first event frame that carried a nonce, as read (for the size and shape of an event). */
let sample: string | undefined;
const NONCE = Buffer.from('[bench:');

const send = (message: unknown) => process.send?.(message);
const now = () => Number(process.hrtime.bigint());
const cpuSeconds = () => {
  const cpu = process.cpuUsage();
  return (cpu.user + cpu.system) / 1e6;
};

function onEvent(data: Buffer) {
  const at = now();
  frames++;
  const start = data.indexOf(NONCE);
  if (start < 0) return;
  const end = data.indexOf(93 /* ] */, start);
  const nonce = data.toString('latin1', start + NONCE.length, end);
  let list = arrivals.get(nonce);
  if (!list) arrivals.set(nonce, (list = []));
  list.push(at);
  sample ??= data.toString('utf8');
}

const onClose = (code: number) => (closes[code] = (closes[code] ?? 0) + 1);

async function connect({ url, count, addresses, concurrency, protocol, client }: ConnectCommand) {
  const started = now();
  const opening = new Histogram();
  let connected = 0;
  let failed = 0;
  let next = 0;
  let firstError: string | undefined;
  const one = async (i: number) => {
    const t = now();
    try {
      const socket = await openSpectatorClient(url, protocol, client, { localAddress: addresses[i % addresses.length], timeoutMs: 20_000, onEvent, onClose });
      opening.record((now() - t) / 1e6);
      connected++;
      sockets.push(socket);
    } catch (error) {
      failed++;
      firstError ??= (error as Error).message;
    }
  };
  const progress = setInterval(() => send({ type: 'progress', connected, failed }), 1_000);
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await one(next++);
    }),
  );
  clearInterval(progress);
  send({ type: 'connected', connected, failed, firstError, ms: (now() - started) / 1e6, opening: opening.snapshot() });
}

/** Per group of events: latency of every delivery, and per event the time until the last socket had it. */
function report({ sent, groups }: ReportCommand) {
  const histograms = new Map<string, Histogram>();
  const byGroup: Record<string, { deliveries?: HistogramSnapshot; lastByNonce: Record<string, number>; countByNonce: Record<string, number> }> = {};
  for (const [nonce, t0] of Object.entries(sent)) {
    const group = groups[nonce] ?? 'default';
    const entry = (byGroup[group] ??= { lastByNonce: {}, countByNonce: {} });
    let histogram = histograms.get(group);
    if (!histogram) histograms.set(group, (histogram = new Histogram()));
    const list = arrivals.get(nonce) ?? [];
    let last = 0;
    for (const at of list) {
      histogram.record((at - t0) / 1e6);
      if (at > last) last = at;
    }
    entry.lastByNonce[nonce] = last;
    entry.countByNonce[nonce] = list.length;
  }
  for (const [group, histogram] of histograms) byGroup[group]!.deliveries = histogram.snapshot();
  send({ type: 'report', byGroup, frames, open: sockets.filter((s) => s.open).length, closes, cpuSeconds: cpuSeconds(), sample });
}

process.on('message', (command: Command) => {
  if (command.cmd === 'connect') void connect(command);
  else if (command.cmd === 'report') report(command);
  else if (command.cmd === 'frames') send({ type: 'frames', frames, cpuSeconds: cpuSeconds() });
  else if (command.cmd === 'close') {
    for (const socket of sockets) socket.terminate();
    setTimeout(() => process.exit(0), 200);
  }
});
process.on('disconnect', () => process.exit(0));
// If the bench dies without stopping us (SIGKILL), we are re-parented: leave too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(0), 1_000).unref();
send({ type: 'ready' });
