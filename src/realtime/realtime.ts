import type { TemplatedApp } from 'uWebSockets.js';
import type { Metrics } from '../http/metrics.js';
import type { Logger } from '../logger.js';
import type { TokenService } from '../services/token-service.js';
import type { EventStreams } from '../store/event-streams.js';
import type { PubSub } from '../store/pubsub.js';
import type { RateLimiter } from '../store/rate-limiter.js';
import { EventRelay } from './event-relay.js';
import { CLOSE, EventSockets, type SocketLimits, type SocketPolicy } from './event-sockets.js';

type Deps = {
  streams: EventStreams;
  pubsub: PubSub;
  /** Whether the subscriber connection is up (with `pubsub.listening`: the relay is live). */
  subscriberReady: () => boolean;
  /** Resolves once Redis answers a ping. */
  storeAnswers: () => Promise<unknown>;
  logger: Logger;
};

/**
 * Realtime delivery of the events the publisher appended to the streams: the one relay per process, and
 * the WebSocket endpoints that replay and then follow uWS topics.
 */
export class Realtime {
  readonly streams: EventStreams;
  private relay?: EventRelay;
  sockets?: EventSockets;
  private app?: TemplatedApp;

  constructor(private readonly deps: Deps) {
    this.streams = deps.streams;
  }

  /** Subscribes this process to the live announcements (before any socket can open). */
  async start(): Promise<void> {
    this.relay = new EventRelay((topic, frame) => this.app?.publish(topic, frame));
    await this.relay.start(this.deps.pubsub);
    this.watchRelayConnection();
  }

  /** Registers `/api/v1/ws` and `/api/v1/spectator/stream` on the uWS app. */
  registerSockets(
    app: TemplatedApp,
    tokens: TokenService,
    metrics: Metrics,
    options: { rateLimiter?: RateLimiter; policy?: Partial<SocketPolicy>; limits?: Partial<SocketLimits> } = {},
  ) {
    if (!this.relay) throw new Error('Realtime.start() must run before registerSockets()');
    this.app = app;
    this.sockets = new EventSockets({
      app,
      tokens,
      streams: this.streams,
      relay: this.relay,
      // Not before a lost link is fully restored: until then a new socket could miss what the restore resends.
      relayUp: () => this.deps.subscriberReady() && this.deps.pubsub.listening,
      storeAnswers: this.deps.storeAnswers,
      logger: this.deps.logger,
      metrics,
      ...options,
    });
    this.sockets.register();
  }

  stop() {
    this.sockets?.stop();
  }

  /**
   * Announcements made while the subscriber connection was down are lost to live delivery (the streams
   * still hold them), so once it is back (subscribed again) every socket is asked to reconnect with `since`
   * and replay them.
   */
  private watchRelayConnection() {
    this.deps.pubsub.onRestored(() => {
      this.deps.logger.info('live event relay reconnected; asking sockets to resume with since');
      this.sockets?.closeAll(CLOSE.relayInterrupted);
    });
  }
}
