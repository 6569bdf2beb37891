import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketIoServer } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { FrameReader, maskedFrame, OPCODE } from '../../bench/lib/frame-reader.js';
import { LeanWebSocket } from '../../bench/lib/lean-websocket.js';
import { openSpectatorClient, type SpectatorClient, type SpectatorClientKind } from '../../bench/lib/spectator-clients.js';
import { eventually } from '../support/eventually.js';

/** The last frame a test sends each client: one socket's frames arrive in order, so what came twice came before it. */
const MARKER = '[bench:end]';

/** A server frame (unmasked), as a server would write it. */
function serverFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0, length]) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (length >= 126 && length < 65_536) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else if (length >= 65_536) {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  header[0] = (fin ? 0x80 : 0) | opcode;
  return Buffer.concat([header, payload]);
}

describe('lean WebSocket client of the bench', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('reads frames of every length form, however the stream is cut, and joins fragments', () => {
    const read = (texts: string[], cuts: number[]) => {
      const stream = Buffer.concat([
        ...texts.map((text) => serverFrame(OPCODE.text, Buffer.from(text))),
        serverFrame(OPCODE.ping, Buffer.from('hi')),
        serverFrame(OPCODE.text, Buffer.from('frag'), false),
        serverFrame(OPCODE.continuation, Buffer.from('mented'), true),
        serverFrame(OPCODE.close, Buffer.from([0x0f, 0xa0])),
        serverFrame(OPCODE.text, Buffer.from('after the close: not read')),
      ]);
      for (const cut of [...cuts, stream.length]) {
        const seen: string[] = [];
        const pings: string[] = [];
        const closes: number[] = [];
        const reader = new FrameReader({
          message: (data) => seen.push(data.toString()),
          ping: (p) => pings.push(p.toString()),
          close: (code) => closes.push(code),
        });
        for (let at = 0; at < stream.length; at += cut) reader.feed(stream.subarray(at, at + cut));
        expect(seen).toEqual([...texts, 'fragmented']);
        expect(pings).toEqual(['hi']);
        expect(closes).toEqual([4000]);
      }
    };
    read(['a', 'x'.repeat(125), 'y'.repeat(126), '[bench:n1] tail'], [1, 2, 3, 7]);
    read(['a', 'z'.repeat(65_535), 'w'.repeat(65_536), 'v'.repeat(200_000)], [1_000, 16_384, 65_536]);
  });

  it('masks what it sends', () => {
    const mask = Buffer.from([1, 2, 3, 4]);
    const frame = maskedFrame(OPCODE.pong, Buffer.from('abcd'), mask);
    expect([...frame.subarray(0, 6)]).toEqual([0x80 | OPCODE.pong, 0x80 | 4, 1, 2, 3, 4]);
    expect(Buffer.from(frame.subarray(6).map((byte, i) => byte ^ mask[i & 3]!)).toString()).toBe('abcd');
  });

  async function wsServer(): Promise<{ wss: WebSocketServer; url: string; sockets: ServerSocket[] }> {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    await new Promise((resolve) => wss.once('listening', resolve));
    const sockets: ServerSocket[] = [];
    wss.on('connection', (socket) => sockets.push(socket));
    cleanups.push(() => new Promise((resolve) => wss.close(() => resolve())));
    cleanups.push(() => sockets.forEach((s) => s.terminate()));
    return { wss, url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/stream?x=1`, sockets };
  }

  it.each(['lean', 'ws'] as SpectatorClientKind[])('%s client: counts every message a ws server sends, no more, no less', async (kind) => {
    const { url, sockets } = await wsServer();
    const counts: number[] = [];
    const atMarker: Array<number | undefined> = [];
    const clients: SpectatorClient[] = [];
    for (let i = 0; i < 20; i++) {
      counts.push(0);
      atMarker.push(undefined);
      const onEvent = (data: Buffer) => (data.includes(MARKER) ? (atMarker[i] = counts[i]) : counts[i]!++);
      clients.push(await openSpectatorClient(url, 'websocket', kind, { timeoutMs: 10_000, onEvent, onClose: () => {} }));
    }
    cleanups.push(() => clients.forEach((c) => c.terminate()));
    await eventually('20 sockets on the server', () => sockets.length === 20);
    for (let n = 0; n < 300; n++) for (const socket of sockets) socket.send(`{"n":${n},"body":"${'b'.repeat(n * 7)} [bench:r-${n}]"}`);
    for (const socket of sockets) socket.send(`{"n":-1,"body":"${MARKER}"}`);
    await eventually('every client at the marker', () => atMarker.every((n) => n !== undefined));
    expect(atMarker).toEqual(Array<number>(20).fill(300));
    expect(clients.every((c) => c.open)).toBe(true);
  });

  it('answers pings with pongs and a close with a close, and reports the code', async () => {
    const { url, sockets } = await wsServer();
    const closes: number[] = [];
    const socket = await LeanWebSocket.connect(url, { onMessage: () => {}, onClose: (code) => closes.push(code) });
    await eventually('the socket on the server', () => sockets.length === 1);
    const pong = new Promise<string>((resolve) => sockets[0]!.once('pong', (data) => resolve(data.toString())));
    sockets[0]!.ping('are you there');
    expect(await pong).toBe('are you there');
    const serverClose = new Promise<number>((resolve) => sockets[0]!.once('close', (code) => resolve(code)));
    sockets[0]!.close(4001, 'bye');
    expect(await serverClose).toBe(4001);
    await eventually('the close reported', () => closes.length === 1);
    expect(closes).toEqual([4001]);
    expect(socket.open).toBe(false);
  });

  it('rejects an upgrade the server refuses', async () => {
    const http = createServer((_req, res) => res.writeHead(404).end('no'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => http.close(() => resolve())));
    const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/`;
    await expect(LeanWebSocket.connect(url, { onMessage: () => {} })).rejects.toThrow(/answered 404/);
  });

  it('speaks Engine.IO v4 to a Socket.IO server: joins, counts each event once, answers its pings', async () => {
    const http: HttpServer = createServer();
    // Pings every 100 ms; a pong may take long on a busy machine without the server giving up on the client.
    const io = new SocketIoServer(http, { transports: ['websocket'], perMessageDeflate: false, pingInterval: 100, pingTimeout: 10_000 });
    const pongs: number[] = [];
    io.engine.on('connection', (socket: { on(event: 'heartbeat', listener: () => void): void }) => {
      const n = pongs.push(0) - 1;
      socket.on('heartbeat', () => pongs[n]!++);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => void io.close(() => resolve())));
    const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/socket.io/?EIO=4&transport=websocket`;
    const counts: number[] = [];
    const atMarker: Array<number | undefined> = [];
    const closes: number[] = [];
    const clients: SpectatorClient[] = [];
    for (let i = 0; i < 20; i++) {
      counts.push(0);
      atMarker.push(undefined);
      const onEvent = (data: Buffer) => (data.includes(MARKER) ? (atMarker[i] = counts[i]) : counts[i]!++);
      clients.push(await openSpectatorClient(url, 'engine.io', 'lean', { timeoutMs: 10_000, onEvent, onClose: (code) => closes.push(code) }));
    }
    cleanups.push(() => clients.forEach((c) => c.terminate()));
    expect(io.engine.clientsCount).toBe(20);
    // Every client answers the server's pings (Engine.IO counts each pong as a heartbeat).
    await eventually('three pongs from every client', () => pongs.length === 20 && pongs.every((n) => n >= 3));
    for (let n = 0; n < 50; n++) io.emit('message.created', { type: 'message.created', data: { body: `hello [bench:e-${n}]` } });
    io.emit('message.created', { type: 'message.created', data: { body: MARKER } });
    await eventually('every client at the marker', () => atMarker.every((n) => n !== undefined));
    expect(atMarker).toEqual(Array<number>(20).fill(50));
    expect(closes).toEqual([]);
    expect(io.engine.clientsCount).toBe(20);
  });
});
