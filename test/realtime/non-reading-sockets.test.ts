import { publishEvent } from '../support/event-publisher.js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareEventIds } from '../../src/features/events/event-ids.js';
import { CLOSE } from '../../src/features/events/sockets/close-codes.js';
import type { TestEvent } from '../support/event-publisher.js';
import { registerAgent } from '../support/accounts.js';
import { eventually } from '../support/eventually.js';
import { startStack } from '../support/stack.js';

/** A frame of about 32 KB: a replay of 500 of them is more than the kernel's buffers take for a client that does not read. */
const BIG = 'x'.repeat(32_000);
/** Unsent bytes a replaying socket may hold: two chunks of 64 KiB and a frame or two. */
const REPLAY_BOUND = 256 * 1024;

let stack: Awaited<ReturnType<typeof startStack>>;
const open: WebSocket[] = [];

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  for (const ws of open) ws.terminate();
  await stack?.stop();
});

const sockets = () => stack.app.realtime.sockets!;

const bigEvent = (n: number, recipients: number[] = []): TestEvent => ({
  type: 'message.created',
  pool: 'agent',
  recipients,
  dataFor: () => ({ n, body: BIG }),
  spectator: recipients.length === 0 ? { n, body: BIG } : undefined,
});

type Client = { ws: WebSocket; frames: Array<{ id?: string; type: string; data: { n?: number } }>; closed: Promise<{ code: number; reason: string }> };

/** A `ws` client that stops reading from its TCP socket as soon as it is open (the kernel's buffers then fill up). */
async function openNotReading(path: string, token?: string): Promise<Client> {
  const ws = new WebSocket(stack.baseUrl.replace(/^http/, 'ws') + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  open.push(ws);
  const frames: Client['frames'] = [];
  ws.on('message', (data) => frames.push(JSON.parse((data as Buffer).toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      tcp(ws).pause();
      resolve();
    });
    ws.once('error', reject);
  });
  return { ws, frames, closed };
}

const tcp = (ws: WebSocket) => (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;

/**
 * Waits for the server to close every socket, recording the most unsent bytes it held meanwhile. The
 * bound is generous for a busy machine; what the tests assert is that the socket is closed at all (uWS
 * alone would keep it for its idle timeout, about half a minute) and what it held.
 */
async function closedByServer(): Promise<number> {
  let most = 0;
  await eventually(
    'the server closed the socket',
    () => {
      most = Math.max(most, sockets().bufferedBytes);
      return sockets().size === 0;
    },
    15_000,
  );
  return most;
}

describe('a socket that does not read', () => {
  it('is closed (4008) within seconds while replaying, the spectator stream or its own, and holds a couple of chunks at most meanwhile', async () => {
    const agent = await registerAgent(stack.api);
    for (let n = 0; n < 520; n++) await publishEvent(stack.app, bigEvent(n));
    for (let n = 0; n < 520; n++) await publishEvent(stack.app, bigEvent(n, [agent.user_id]));

    for (const [path, token] of [
      ['/api/v1/spectator/stream?since=0', undefined],
      ['/api/v1/ws?since=0', agent.token],
    ] as const) {
      const client = await openNotReading(path, token);
      const most = await closedByServer();
      expect(most, path).toBeGreaterThan(0);
      expect(most, path).toBeLessThanOrEqual(REPLAY_BOUND);
      // The close frame waits behind what the client has not read: reading again, it gets those frames, then 4008.
      tcp(client.ws).resume();
      expect(await client.closed, path).toEqual({ code: CLOSE.notReading.code, reason: CLOSE.notReading.reason });
      if (token === undefined) expect(client.frames[0]).toEqual({ type: 'replay.truncated', data: { skipped_before: expect.any(String) } });
      // What it did get came in order, each once.
      const ids = client.frames.filter((f) => f.id !== undefined).map((f) => f.id!);
      expect(ids.length, path).toBeGreaterThan(0);
      for (let i = 1; i < ids.length; i++) expect(compareEventIds(ids[i - 1]!, ids[i]!), path).toBeLessThan(0);
    }
  }, 60_000);

  it('is closed (4008) within seconds when the kernel took its whole replay unread: the ping behind the replay goes unanswered', async () => {
    const agent = await registerAgent(stack.api);
    for (let n = 0; n < 40; n++) await publishEvent(stack.app, bigEvent(n, [agent.user_id]));
    const client = await openNotReading('/api/v1/ws?since=0', agent.token);
    // About 1.3 MB, all of it in the kernel's buffers: uWS holds nothing unsent.
    await eventually('the replay handed to the kernel', () => sockets().size === 1 && sockets().bufferedBytes === 0 && client.frames.length === 0);
    expect(await closedByServer()).toBe(0);
    tcp(client.ws).resume();
    expect(await client.closed).toEqual({ code: CLOSE.notReading.code, reason: CLOSE.notReading.reason });
    expect(client.frames.map((f) => f.data.n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it('is closed (4008) within seconds when live, though far less than 1 MiB behind', async () => {
    const client = await openNotReading('/api/v1/spectator/stream');
    // Live events until the kernel's buffers are full and uWS holds some, then a trickle (8 KB every 200 ms).
    for (let n = 0; n < 2_000 && sockets().bufferedBytes === 0; n++) await publishEvent(stack.app, bigEvent(n));
    expect(sockets().bufferedBytes).toBeGreaterThan(0);
    let trickling = true;
    const trickle = (async () => {
      for (let n = 0; trickling; n++) {
        await publishEvent(stack.app, { ...bigEvent(n), spectator: { n, body: BIG.slice(0, 8_000) } });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const most = await closedByServer().finally(() => (trickling = false));
    // Read at once: the close frame waits behind what the kernel holds, and the server does not wait for it
    // to be read for ever (a client that reads nothing long after the close sees the connection dropped).
    tcp(client.ws).resume();
    await trickle;
    expect(most).toBeLessThan(1024 * 1024);
    expect(await client.closed).toEqual({ code: CLOSE.notReading.code, reason: CLOSE.notReading.reason });
    expect(client.frames.length).toBeGreaterThan(0);
  }, 30_000);
});
