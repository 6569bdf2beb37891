import { App, us_listen_socket_close, us_socket_local_port, type us_listen_socket } from 'uWebSockets.js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { Metrics } from '../../src/platform/metrics/metrics.js';
import { EventRelay } from '../../src/features/events/sockets/event-relay.js';
import { EventSockets, SPECTATOR_SOCKET_PATH } from '../../src/features/events/sockets/event-sockets.js';
import { EventReplay } from '../../src/features/events/event-replay.js';
import { LiveEvents } from '../../src/features/events/live-events.js';
import { streamPublisher, type EventPublisher } from '../support/event-publisher.js';
import { TokenService } from '../../src/features/accounts/token-service.js';
import { TokenStore } from '../../src/features/accounts/token-repository.js';
import { EventStreams } from '../../src/features/events/event-stream-repository.js';
import { PubSub } from '../../src/platform/redis/pubsub.js';
import { createRedis, createSubscriberRedis } from '../../src/platform/redis/redis.js';
import { Scripts } from '../../src/platform/redis/scripts.js';
import { eventually } from '../support/eventually.js';
import { startTestRedis } from '../support/stack.js';

let redisServer: Awaited<ReturnType<typeof startTestRedis>>;
const clients: ReturnType<typeof createRedis>[] = [];
let sockets: EventSockets;
let publisher: EventPublisher;
let listenSocket: us_listen_socket;
let url = '';

// The real socket endpoints on their own uWS app, with a small uWS cap and the sweep out of the way, so that
// uWS itself drops frames for a socket that does not read.
beforeAll(async () => {
  redisServer = await startTestRedis();
  clients.push(createRedis(redisServer.topology), createSubscriberRedis(redisServer.topology));
  await Promise.all(clients.map((c) => c.connect()));
  const [redis, subscriber] = clients as [ReturnType<typeof createRedis>, ReturnType<typeof createRedis>];
  const app = App();
  const streams = new EventStreams(redis, new Scripts(redis));
  const relay = new EventRelay((topic, frame) => app.publish(topic, frame));
  await relay.start(new LiveEvents(new PubSub(redis, subscriber)));
  sockets = new EventSockets({
    app,
    tokens: new TokenService(new TokenStore(redis), new TextEncoder().encode('dropped-test-secret-dropped-test-secret'), 3600),
    replay: new EventReplay(streams),
    relay,
    relayUp: () => true,
    storeAnswers: () => redis.ping(),
    logger: createLogger('silent'),
    metrics: new Metrics(),
    limits: { maxBackpressure: 256 * 1024, slowBytes: 1024 * 1024 * 1024, sweepMs: 60_000 },
  });
  sockets.register();
  listenSocket = await new Promise((resolve) => app.listen('127.0.0.1', 0, (s) => resolve(s)));
  url = `ws://127.0.0.1:${us_socket_local_port(listenSocket)}${SPECTATOR_SOCKET_PATH}`;
  publisher = streamPublisher(streams);
});
afterAll(async () => {
  sockets?.stop();
  if (listenSocket) us_listen_socket_close(listenSocket);
  for (const client of clients) client.disconnect();
  await redisServer?.cleanup();
});

const open = () =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });

const event = (n: number, body: string) => ({ type: 'message.created' as const, pool: 'agent' as const, recipients: [], dataFor: () => ({}), spectator: { n, body } });

describe('frames uWS drops', () => {
  it('close the socket once uWS is done publishing (not from inside its publish), and the process carries on', async () => {
    const deaf = await open();
    (deaf as unknown as { _socket: { pause(): void } })._socket.pause();
    const body = 'z'.repeat(100_000);
    // Until the kernel's buffers and then uWS's cap are full: uWS drops a frame, and the socket is closed.
    for (let n = 0; n < 400 && sockets.size > 0; n++) await publisher.publish(event(n, body));
    await eventually('the socket closed', () => sockets.size === 0);
    deaf.terminate();

    const next = await open();
    const frames: string[] = [];
    next.on('message', (data) => frames.push((data as Buffer).toString()));
    await publisher.publish(event(-1, 'after'));
    await eventually('the next socket got the next event', () => frames.some((f) => f.includes('"after"')));
    next.close();
  });
});
