import { App, us_listen_socket_close, us_socket_local_port, type us_listen_socket } from 'uWebSockets.js';
import { TokenService } from '../../src/features/accounts/token-service.js';
import { TokenRepository } from '../../src/features/accounts/token-repository.js';
import { EventReplay } from '../../src/features/events/event-replay.js';
import { EventStreamRepository } from '../../src/features/events/event-stream-repository.js';
import { LiveEvents } from '../../src/features/events/live-events.js';
import { EventRelay } from '../../src/features/events/sockets/event-relay.js';
import { EventSockets, SPECTATOR_SOCKET_PATH, type SocketLimits } from '../../src/features/events/sockets/event-sockets.js';
import { createLogger } from '../../src/platform/logger.js';
import { CorkAnchor } from '../../src/platform/http/cork-anchor.js';
import { Metrics } from '../../src/platform/metrics/metrics.js';
import { PubSub } from '../../src/platform/redis/pubsub.js';
import { createRedis, createSubscriberRedis, type RedisClient } from '../../src/platform/redis/redis.js';
import { Scripts } from '../../src/platform/redis/scripts.js';
import { streamPublisher, type EventPublisher } from './event-publisher.js';
import { startTestRedis } from './stack.js';

export type SocketEndpoints = {
  sockets: EventSockets;
  /** The spectator stream's URL. */
  url: string;
  redis: RedisClient;
  /** Puts events straight onto the streams the sockets replay and follow. */
  publisher: EventPublisher;
  stop: () => Promise<void>;
};

/**
 * The real WebSocket endpoints on a uWS app of their own, in this process, over a Redis of the test file's
 * own, with `limits` (idle timeout, caps, sweep) set as a test needs them.
 */
export async function startSocketEndpoints(limits: Partial<SocketLimits>): Promise<SocketEndpoints> {
  const redisServer = await startTestRedis();
  const redis = createRedis(redisServer.topology);
  const subscriber = createSubscriberRedis(redisServer.topology);
  await Promise.all([redis.connect(), subscriber.connect()]);
  const app = App();
  const corkAnchor = new CorkAnchor(createLogger('silent'));
  corkAnchor.register(app);
  const streams = new EventStreamRepository(redis, new Scripts(redis));
  const relay = new EventRelay((topic, frame) => app.publish(topic, frame));
  await relay.start(new LiveEvents(new PubSub(redis, subscriber)));
  const sockets = new EventSockets({
    app,
    tokens: new TokenService(new TokenRepository(redis, new Scripts(redis)), new TextEncoder().encode('socket-test-secret-socket-test-secret'), 3600),
    replay: new EventReplay(streams),
    relay,
    relayUp: () => true,
    storeAnswers: () => redis.ping(),
    logger: createLogger('silent'),
    metrics: new Metrics(),
    corkAnchor,
    limits,
  });
  sockets.register();
  const listenSocket = await new Promise<us_listen_socket>((resolve) => app.listen('127.0.0.1', 0, (s) => resolve(s)));
  await corkAnchor.start('127.0.0.1', us_socket_local_port(listenSocket));
  return {
    sockets,
    url: `ws://127.0.0.1:${us_socket_local_port(listenSocket)}${SPECTATOR_SOCKET_PATH}`,
    redis,
    publisher: streamPublisher(streams),
    stop: async () => {
      corkAnchor.stop();
      sockets.stop();
      us_listen_socket_close(listenSocket);
      redis.disconnect();
      subscriber.disconnect();
      await redisServer.cleanup();
    },
  };
}
