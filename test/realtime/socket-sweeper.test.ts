import { App, type WebSocket as UwsSocket } from 'uWebSockets.js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE, type Close } from '../../src/features/events/sockets/close-codes.js';
import type { Socket, SocketData } from '../../src/features/events/sockets/socket-data.js';
import { SocketSweeper } from '../../src/features/events/sockets/socket-sweeper.js';
import type { ReplayStream } from '../../src/features/events/event-replay.js';
import { listenOnFreePort } from '../support/uws-app.js';

const SLOW_BYTES = 256 * 1024;
const STALL_MS = 5_000;
const sockets = new Set<Socket>();
const ended: Array<{ name: string; close: Close }> = [];
const byName = new Map<string, Socket>();
let server: Awaited<ReturnType<typeof listenOnFreePort>>;
let sweeper: SocketSweeper;

const end = (ws: Socket, close: Close) => {
  const data = ws.getUserData();
  ended.push({ name: data.topic, close });
  data.closing = true;
  ws.end(close.code, close.reason);
};

beforeAll(async () => {
  const app = App();
  app.ws<SocketData>('/s', {
    maxBackpressure: 256 * 1024 * 1024,
    closeOnBackpressureLimit: false,
    upgrade: (res, req, context) => {
      const query = new URLSearchParams(req.getQuery() ?? '');
      const name = query.get('name') ?? '';
      const exp = query.get('exp');
      const data: SocketData = {
        topic: name,
        stream: { key: '', channel: '' } as unknown as ReplayStream,
        ip: '',
        closed: false,
        closing: false,
        replaying: query.get('replaying') === '1',
        claims: exp ? { userId: 1, pool: 'agent', jti: name, exp: Number(exp), epoch: 0 } : undefined,
      };
      res.upgrade(data, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context);
    },
    open: (ws) => {
      sockets.add(ws);
      byName.set(ws.getUserData().topic, ws);
    },
    close: (ws: UwsSocket<SocketData>) => {
      ws.getUserData().closed = true;
      sockets.delete(ws);
    },
  });
  server = await listenOnFreePort(app);
  sweeper = new SocketSweeper(sockets, { slowBytes: SLOW_BYTES, stallMs: STALL_MS, sweepMs: 50 }, end);
});
afterAll(() => {
  sweeper?.stop();
  server?.close();
});

function open(query: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const client = new WebSocket(`ws://127.0.0.1:${server.port}/s?${query}`);
    client.once('open', () => resolve(client));
    client.once('error', reject);
  });
}

const closed = (client: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) => client.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));

/** Sends to the named socket until uWS holds more than `bytes` unsent (the client has stopped reading). */
function fillUntil(name: string, bytes: number) {
  const ws = byName.get(name)!;
  const frame = Buffer.alloc(64 * 1024, 1);
  for (let i = 0; i < 4096 && ws.getBufferedAmount() <= bytes; i++) ws.send(frame, true);
  expect(ws.getBufferedAmount()).toBeGreaterThan(bytes);
}

describe('the socket sweeper', () => {
  it('closes a socket whose token has expired with 4001, and leaves one whose token is valid', async () => {
    const expired = await open(`name=expired&exp=${Math.floor(Date.now() / 1000) - 1}`);
    const valid = await open(`name=valid&exp=${Math.floor(Date.now() / 1000) + 3600}`);
    const expiredClose = closed(expired);
    sweeper.sweep();
    expect(await expiredClose).toEqual({ code: CLOSE.tokenExpired.code, reason: CLOSE.tokenExpired.reason });
    expect(valid.readyState).toBe(WebSocket.OPEN);
    expect(ended.map((e) => e.name)).not.toContain('valid');
    valid.close();
  });

  it('closes a live socket more than slowBytes behind as too slow (4008), on its own timer', async () => {
    const slow = await open('name=slow');
    const keeping = await open('name=keeping');
    (slow as unknown as { _socket: { pause(): void } })._socket.pause();
    fillUntil('slow', SLOW_BYTES);
    sweeper.start();
    await expect.poll(() => ended.find((e) => e.name === 'slow')?.close).toEqual(CLOSE.tooSlow);
    sweeper.stop();
    expect(ended.map((e) => e.name)).not.toContain('keeping');
    slow.terminate();
    keeping.close();
  });

  it('leaves a replaying socket to its replay, however far behind, and skips one already closing', async () => {
    const replaying = await open('name=replaying&replaying=1');
    (replaying as unknown as { _socket: { pause(): void } })._socket.pause();
    fillUntil('replaying', SLOW_BYTES);
    sweeper.sweep();
    expect(ended.map((e) => e.name)).not.toContain('replaying');

    const closing = await open(`name=closing&exp=${Math.floor(Date.now() / 1000) - 1}`);
    byName.get('closing')!.getUserData().closing = true;
    sweeper.sweep();
    expect(ended.map((e) => e.name)).not.toContain('closing');
    replaying.terminate();
    closing.terminate();
  });

  it('closes a socket, replaying or live, that took none of its unsent bytes for stallMs (4008 not reading); a drain starts the count again', async () => {
    const [stalled, replaying, reading] = await Promise.all([open('name=stalled'), open('name=stalled-replay&replaying=1'), open('name=reading')]);
    for (const client of [stalled, replaying, reading]) (client as unknown as { _socket: { pause(): void } })._socket.pause();
    // Far less than slowBytes each, but more than the kernel takes for a client that does not read.
    for (const name of ['stalled', 'stalled-replay', 'reading']) fillUntil(name, 64 * 1024);
    const closes = [closed(stalled), closed(replaying)];
    const t0 = Date.now();
    sweeper.sweep(t0);
    SocketSweeper.drained(byName.get('reading')!); // as uWS's drain handler does when it wrote some out
    sweeper.sweep(t0 + STALL_MS - 1);
    expect(ended.map((e) => e.name)).not.toContain('stalled');
    sweeper.sweep(t0 + STALL_MS);
    expect(ended.filter((e) => e.name.startsWith('stalled')).map((e) => e.close)).toEqual([CLOSE.notReading, CLOSE.notReading]);
    expect(ended.map((e) => e.name)).not.toContain('reading');
    // The close frame waits behind the unread frames: a client that reads again gets them, then 4008.
    for (const client of [stalled, replaying]) (client as unknown as { _socket: { resume(): void } })._socket.resume();
    for (const close of await Promise.all(closes)) expect(close).toEqual({ code: 4008, reason: CLOSE.notReading.reason });
    reading.terminate();
  });
});
