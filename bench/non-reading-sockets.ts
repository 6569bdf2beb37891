/**
 * Sockets that never read, measured as an attacker would: the service with its default settings starts in
 * this process on a private redis-server; the spectator stream's replay window is filled with the largest
 * messages a client can send (2,000 four-byte characters: about 8 KB a frame); then `--sockets` raw TCP
 * sockets (50 per loopback source address, within the default per-address limits) upgrade to
 * `/api/v1/spectator/stream?since=0` and never read a byte. It reports the server's RSS growth per socket
 * (the most over `--seconds`, against the RSS before the sockets opened), the most bytes uWS held unsent,
 * and how many sockets the server had closed 3, 6 and 10 s after the last one opened, and at the end. Then every client reads what
 * was sent to it and says how its socket ended (the close code, or none when the connection was cut).
 *
 *   npx tsx bench/non-reading-sockets.ts [--sockets 50] [--seconds 15] [--json]
 *
 * The kernel's socket buffers are not in RSS: on loopback a client that does not read takes a few MB
 * into them before uWS holds anything (see `bench/README.md`).
 */
import { publishEvent } from '../test/support/event-publisher.js';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spectatorMessageCreated } from '../src/features/spectator/spectator-views.js';
import { LoopbackAddresses } from './lib/loopback.js';
import { startPrivateRedis } from './lib/private-redis.js';
import { startBenchApp } from './lib/bench-app.js';

export type NonReadingOptions = { sockets?: number; seconds?: number; log?: (line: string) => void };

export type NonReadingResult = {
  sockets: number;
  replay_window_events: number;
  replay_window_bytes: number;
  rss_before_mib: number;
  rss_growth_most_mib: number;
  rss_growth_per_socket_kib: number;
  unsent_bytes_most: number;
  unsent_bytes_per_socket_most_kib: number;
  closed_by_server: { after_3s: number; after_6s: number; after_10s: number; at_end: number };
  /** How each client's socket ended once it read again: the close code, or `cut` (no close frame). */
  endings: Record<string, number>;
};

const SOCKETS_PER_ADDRESS = 50;
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function runNonReadingSockets(opts: NonReadingOptions = {}): Promise<NonReadingResult> {
  const { sockets: count = 50, seconds = 15, log = () => {} } = opts;
  const redis = await startPrivateRedis('non-reading-sockets');
  const app = await startBenchApp(redis.topology);
  const clients: Client[] = [];
  try {
    log(`filling the spectator replay window: ${app.config.SPECTATOR_REPLAY_LIMIT} messages of 2,000 four-byte characters ...`);
    const body = '\u{1F600}'.repeat(2_000);
    for (let i = 0; i < app.config.SPECTATOR_REPLAY_LIMIT; i++) {
      const message = { id: i + 1, match_id: 1, sender_id: 1, body, created_at: new Date().toISOString(), shared_interests_mentioned: [] };
      await publishEvent(app, { type: 'message.created', pool: 'agent', recipients: [], dataFor: () => ({}), spectator: spectatorMessageCreated(message) });
    }
    const windowBytes =
      app.config.SPECTATOR_REPLAY_LIMIT *
      Buffer.byteLength(
        JSON.stringify(
          spectatorMessageCreated({ id: 1, match_id: 1, sender_id: 1, body, created_at: new Date().toISOString(), shared_interests_mentioned: [] }),
        ),
      );

    // Warm the paths a socket takes (upgrade, replay, close) so that the baseline holds their code, not a socket.
    const warm = await openNotReading(app.port, '127.0.0.1');
    warm.socket.resume();
    warm.socket.destroy();
    await until(() => (app.realtime.sockets?.size ?? 0) === 0, 10_000);
    await settle();
    const rssBefore = process.memoryUsage.rss();

    log(`opening ${count} sockets with since=0 that never read ...`);
    const addresses = new LoopbackAddresses(true);
    let address = addresses.next()!;
    for (let i = 0; i < count; i++) {
      if (i > 0 && i % SOCKETS_PER_ADDRESS === 0) address = addresses.next()!;
      clients.push(await openNotReading(app.port, address));
    }
    const opened = performance.now();
    let rssMost = 0;
    let unsentMost = 0;
    const closedAt: Record<string, number> = {};
    while (performance.now() - opened < seconds * 1000) {
      rssMost = Math.max(rssMost, process.memoryUsage.rss() - rssBefore);
      unsentMost = Math.max(unsentMost, app.realtime.sockets?.bufferedBytes ?? 0);
      const closed = count - (app.realtime.sockets?.size ?? 0);
      const elapsed = performance.now() - opened;
      if (elapsed >= 3_000 && closedAt.after_3s === undefined) closedAt.after_3s = closed;
      if (elapsed >= 6_000 && closedAt.after_6s === undefined) closedAt.after_6s = closed;
      if (elapsed >= 10_000 && closedAt.after_10s === undefined) closedAt.after_10s = closed;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const closedAtEnd = count - (app.realtime.sockets?.size ?? 0);

    log('letting every client read what it was sent ...');
    const endings: Record<string, number> = {};
    await Promise.all(
      clients.map(async (client) => {
        const ending = await client.ending();
        endings[ending] = (endings[ending] ?? 0) + 1;
      }),
    );
    return {
      sockets: count,
      replay_window_events: app.config.SPECTATOR_REPLAY_LIMIT,
      replay_window_bytes: windowBytes,
      rss_before_mib: mib(rssBefore),
      rss_growth_most_mib: mib(rssMost),
      rss_growth_per_socket_kib: Math.round(rssMost / count / 1024),
      unsent_bytes_most: unsentMost,
      unsent_bytes_per_socket_most_kib: Math.round(unsentMost / count / 1024),
      closed_by_server: { after_3s: closedAt.after_3s ?? 0, after_6s: closedAt.after_6s ?? 0, after_10s: closedAt.after_10s ?? 0, at_end: closedAtEnd },
      endings,
    };
  } finally {
    for (const client of clients) client.socket.destroy();
    await app.stop();
    await redis.stop();
  }
}

type Client = { socket: Socket; ending: () => Promise<string> };

/** A raw TCP socket that upgrades to the spectator stream with since=0, reads the 101, then reads nothing more. */
function openNotReading(port: number, localAddress: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let head = Buffer.alloc(0);
    let rest: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.pause();
      socket.off('data', onData);
      const status = head.subarray(0, head.indexOf('\r\n')).toString();
      if (!status.startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${head.subarray(0, end).toString()}`));
      rest = [head.subarray(end + 4)];
      resolve({ socket, ending: () => readToEnd(socket, rest) });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('connect', () =>
      socket.write(
        `GET /api/v1/spectator/stream?since=0 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
  });
}

/** Reads every server frame to the end of the connection: the close frame's code, or `cut` when there is none. */
function readToEnd(socket: Socket, first: Buffer[]): Promise<string> {
  return new Promise((resolve) => {
    let buffer: Buffer = Buffer.concat(first);
    let code: string | undefined;
    const parse = () => {
      for (;;) {
        if (buffer.length < 2) return;
        let length = buffer[1]! & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + length) return;
        if ((buffer[0]! & 0x0f) === 0x8) code = length >= 2 ? String(buffer.readUInt16BE(offset)) : 'close without code';
        buffer = buffer.subarray(offset + length);
      }
    };
    parse();
    const done = () => resolve(code ?? 'cut');
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      parse();
      if (code) socket.destroy();
    });
    socket.once('close', done);
    socket.once('error', () => undefined);
    socket.resume();
    // A connection the server still holds open (not closed) would never end: stop reading after a while.
    setTimeout(() => {
      if (!code) code = 'still open';
      socket.destroy();
    }, 20_000).unref();
  });
}

async function until(condition: () => boolean, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A moment for garbage (the window's JSON, the warm-up) to be collected before the baseline. */
async function settle() {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      sockets: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '15' },
      json: { type: 'boolean', default: false },
    },
  });
  const r = await runNonReadingSockets({ sockets: Number(values.sockets), seconds: Number(values.seconds), log: (line) => console.error(line) });
  if (values.json) console.log(JSON.stringify(r, null, 2));
  else {
    console.log(`
Sockets that never read — ${r.sockets} spectator sockets with since=0, default settings
  replay window:                 ${r.replay_window_events} events, ${mib(r.replay_window_bytes)} MiB
  server RSS before:             ${r.rss_before_mib} MiB
  RSS growth, most:              ${r.rss_growth_most_mib} MiB (${r.rss_growth_per_socket_kib} KiB a socket)
  unsent bytes held by uWS, most: ${mib(r.unsent_bytes_most)} MiB (${r.unsent_bytes_per_socket_most_kib} KiB a socket)
  closed by the server:          ${r.closed_by_server.after_3s} after 3 s, ${r.closed_by_server.after_6s} after 6 s, ${r.closed_by_server.after_10s} after 10 s, ${r.closed_by_server.at_end} after ${values.seconds} s
  endings, once read:            ${Object.entries(r.endings)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')}
`);
  }
  process.exit(0);
}
