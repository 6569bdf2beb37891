import { App } from 'uWebSockets.js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE, type Close } from '../../src/features/events/sockets/close-codes.js';
import { EventRelay } from '../../src/features/events/sockets/event-relay.js';
import type { Socket, SocketData } from '../../src/features/events/sockets/socket-data.js';
import { SocketReplay } from '../../src/features/events/sockets/socket-replay.js';
import { EventReplay, type ReplayStream } from '../../src/features/events/event-replay.js';
import { LiveEvents } from '../../src/features/events/live-events.js';
import { EventStreamRepository } from '../../src/features/events/event-stream-repository.js';
import { liveEventChannels } from '../../src/platform/redis/keys.js';

/** The channel the test's streams are announced on (any of the live channels the relay follows). */
const CHANNEL = liveEventChannels()[0]!;
import { PubSub } from '../../src/platform/redis/pubsub.js';
import { createRedis, createSubscriberRedis } from '../../src/platform/redis/redis.js';
import { Scripts } from '../../src/platform/redis/scripts.js';
import { startTestRedis } from '../support/stack.js';
import { listenOnFreePort } from '../support/uws-app.js';

let redisServer: Awaited<ReturnType<typeof startTestRedis>>;
const clients: ReturnType<typeof createRedis>[] = [];
const redis = () => clients[0]!;
let server: Awaited<ReturnType<typeof listenOnFreePort>>;
let pubsub: PubSub;
const ended: Close[] = [];

// A uWS app whose one socket route replays `?stream=` after `?since=` with the real relay and streams.
beforeAll(async () => {
  redisServer = await startTestRedis();
  clients.push(createRedis(redisServer.topology), createSubscriberRedis(redisServer.topology));
  await Promise.all(clients.map((c) => c.connect()));
  const app = App();
  const relay = new EventRelay((topic, frame) => app.publish(topic, frame));
  pubsub = new PubSub(redis(), clients[1]!);
  await relay.start(new LiveEvents(pubsub));
  const replay = new SocketReplay(
    new EventReplay(new EventStreamRepository(redis(), new Scripts(redis()))),
    relay,
    { replayPage: 3, replayChunkBytes: 64 * 1024, fenceTimeoutMs: 2_000 },
    (ws, close) => {
      ended.push(close);
      ws.getUserData().closing = true;
      ws.end(close.code, close.reason);
    },
  );
  app.ws<SocketData>('/replay', {
    upgrade: (res, req, context) => {
      const query = new URLSearchParams(req.getQuery() ?? '');
      const stream = query.get('stream')!;
      const limit = query.get('limit');
      const data: SocketData = {
        topic: `topic:${stream}`,
        // The test's own stream keys, written below as lua/append_event-2.lua writes them.
        stream: { key: stream, channel: CHANNEL } as unknown as ReplayStream,
        since: query.get('since') ?? '0',
        replayLimit: limit ? Number(limit) : undefined,
        ip: '',
        closed: false,
        closing: false,
        replaying: true,
      };
      res.upgrade(data, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context);
    },
    open: (ws: Socket) => void replay.run(ws, ws.getUserData().since!),
    close: (ws: Socket) => {
      ws.getUserData().closed = true;
    },
  });
  server = await listenOnFreePort(app);
});
afterAll(async () => {
  server?.close();
  for (const c of clients) c.disconnect();
  await redisServer?.cleanup();
});

/** Appends an event as lua/append_event-2.lua stores it, and (unless `silent`) announces it as it does. */
async function append(stream: string, n: number, silent = false): Promise<string> {
  const body = JSON.stringify({ type: 'test', at: '', data: { n } });
  const id = (await redis().xadd(stream, '*', 'e', body))!;
  if (!silent) await pubsub.publish(CHANNEL, `topic:${stream}\n${id}\n{"id":"${id}",${body.slice(1)}`);
  return id;
}

function connect(query: string) {
  const frames: Array<{ id?: string; type: string; data: { n?: number } }> = [];
  const client = new WebSocket(`ws://127.0.0.1:${server.port}/replay?${query}`);
  client.on('message', (raw: Buffer) => frames.push(JSON.parse(raw.toString())));
  const opened = new Promise<void>((resolve, reject) => {
    client.once('open', () => resolve());
    client.once('error', reject);
  });
  return { client, frames, opened };
}

describe('replaying a socket from its stream, then going live', () => {
  it('sends every event after since, page by page, then live events: no gap, no duplicate', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 8; n++) ids.push(await append('s1', n, true));
    const { client, frames, opened } = connect(`stream=s1&since=${ids[0]}`);
    await opened;
    await expect.poll(() => frames.length).toBe(7);
    // Live events announced after the seam arrive once each, in order.
    await append('s1', 9);
    await append('s1', 10);
    // A marker after them: whatever came twice would come before it, so the frames stop at it, each once.
    await append('s1', 11);
    await expect.poll(() => frames.map((f) => f.data.n)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    client.close();
  });

  it('keeps live events announced during the replay aside and sends only those it did not replay', async () => {
    const first = await append('s2', 1, true);
    const { client, frames, opened } = connect(`stream=s2&since=${first}`);
    // Announced while the socket opens and replays: each is either replayed or sent from the hold, never both.
    const appending = (async () => {
      for (let n = 2; n <= 30; n++) await append('s2', n);
    })();
    await opened;
    await appending;
    await append('s2', 31); // the marker
    await expect.poll(() => frames.map((f) => f.data.n)).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
    client.close();
  });

  it('with a replay limit, says what it skipped (replay.truncated) and sends only the newest events', async () => {
    for (let n = 1; n <= 6; n++) await append('s3', n, true);
    const { client, frames, opened } = connect('stream=s3&since=0-1&limit=2');
    await opened;
    await expect.poll(() => frames.length).toBe(3);
    expect(frames[0]!.type).toBe('replay.truncated');
    expect(frames[0]!.id).toBeUndefined();
    expect(frames.slice(1).map((f) => f.data.n)).toEqual([5, 6]);
    expect(ended).not.toContainEqual(CLOSE.tooSlow);
    client.close();
  });
});
