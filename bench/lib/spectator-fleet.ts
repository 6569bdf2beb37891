/**
 * A child process holding many spectator sockets (a process may hold at most ~20,000 open files, and
 * one process's JS would otherwise be the bottleneck). Driven over IPC by the spectator scenario:
 *   {cmd: 'connect', url, count, addresses, concurrency} → progress {type: 'connected', connected, failed, ms}
 *   {cmd: 'report', sent: {nonce: hrtime ns}}          → {type: 'report', ...per-event arrival figures}
 *   {cmd: 'close'}                                     → closes every socket and exits
 * Times are process.hrtime (CLOCK_MONOTONIC), which every process on the machine shares.
 */
import WebSocket from 'ws';
import { Histogram, type HistogramSnapshot } from './histogram.js';

type ConnectCommand = { cmd: 'connect'; url: string; count: number; addresses: string[]; concurrency: number };
type ReportCommand = { cmd: 'report'; sent: Record<string, number>; groups: Record<string, string> };
type Command = ConnectCommand | ReportCommand | { cmd: 'frames' } | { cmd: 'close' };

const sockets: WebSocket[] = [];
/** nonce → arrival times (ns), one per socket that received it. */
const arrivals = new Map<string, number[]>();
const closes: Record<string, number> = {};
let frames = 0;
const NONCE = Buffer.from('[bench:');

const send = (message: unknown) => process.send?.(message);
const now = () => Number(process.hrtime.bigint());
const cpuSeconds = () => {
  const cpu = process.cpuUsage();
  return (cpu.user + cpu.system) / 1e6;
};

function onFrame(data: Buffer) {
  const at = now();
  frames++;
  const start = data.indexOf(NONCE);
  if (start < 0) return;
  const end = data.indexOf(93 /* ] */, start);
  const nonce = data.toString('latin1', start + NONCE.length, end);
  let list = arrivals.get(nonce);
  if (!list) arrivals.set(nonce, (list = []));
  list.push(at);
}

async function connect({ url, count, addresses, concurrency }: ConnectCommand) {
  const started = now();
  const opening = new Histogram();
  let connected = 0;
  let failed = 0;
  let next = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const t = now();
      const socket = new WebSocket(url, { perMessageDeflate: false, localAddress: addresses[i % addresses.length], handshakeTimeout: 20_000 });
      socket.on('message', onFrame);
      socket.once('open', () => {
        opening.record((now() - t) / 1e6);
        connected++;
        sockets.push(socket);
        resolve();
      });
      socket.once('error', () => {
        failed++;
        resolve();
      });
      socket.on('close', (code) => (closes[code] = (closes[code] ?? 0) + 1));
    });
  const progress = setInterval(() => send({ type: 'progress', connected, failed }), 1_000);
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await one(next++);
    }),
  );
  clearInterval(progress);
  send({ type: 'connected', connected, failed, ms: (now() - started) / 1e6, opening: opening.snapshot() });
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
  send({ type: 'report', byGroup, frames, open: sockets.filter((s) => s.readyState === WebSocket.OPEN).length, closes, cpuSeconds: cpuSeconds() });
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
