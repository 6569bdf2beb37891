import type { TemplatedApp } from 'uWebSockets.js';
import type { Metrics } from '../../../platform/metrics/metrics.js';
import type { Logger } from '../../../platform/logger.js';
import type { EventReplay } from '../event-replay.js';
import type { LiveEvents } from '../live-events.js';
import type { TokenService } from '../../accounts/index.js';
import type { AddressLimits } from '../../../platform/limits/address-limits.js';
import type { SocketLeases } from '../../../platform/limits/socket-lease-repository.js';
import type { UpgradeLimits } from '../../../platform/limits/upgrade-limits.js';
import { EventRelay } from './event-relay.js';
import { EventInbox, type InboxPolicy } from '../inbox/inbox-service.js';
import { CLOSE, EventSockets, type SocketLimits, type SocketPolicy } from './event-sockets.js';
import type { CorkAnchor } from '../../../platform/http/cork-anchor.js';
import { TypingFrames, type MatchUsers, type TypingPolicy } from './typing-frames.js';

type Deps = {
  replay: EventReplay;
  live: LiveEvents;
  /** Whether the subscriber connection is up (with `live.listening`: the relay is live). */
  subscriberReady: () => boolean;
  /** Resolves once Redis answers a ping. */
  storeAnswers: () => Promise<unknown>;
  logger: Logger;
  /** The event inbox's bounds (`GET /api/v1/events`). */
  inbox: InboxPolicy;
  /** What tells a waiting inbox read that its token no longer holds. */
  tokens: TokenService;
};

/**
 * Realtime delivery of the events the publisher appended to the streams: the one relay per process, the
 * WebSocket endpoints that replay and then follow uWS topics, and the inbox that reads them over HTTP.
 */
export class Realtime {
  private relay?: EventRelay;
  private typing?: TypingFrames;
  sockets?: EventSockets;
  inbox?: EventInbox;
  private app?: TemplatedApp;

  constructor(private readonly deps: Deps) {}

  /** Subscribes this process to the live announcements (before any socket can open). */
  async start(): Promise<void> {
    this.relay = new EventRelay((topic, frame) => {
      this.app?.publish(topic, frame);
      this.sockets?.checkBehind(topic);
    });
    await this.relay.start(this.deps.live);
    this.inbox = new EventInbox({
      replay: this.deps.replay,
      relay: this.relay,
      relayUp: () => this.relayUp(),
      policy: this.deps.inbox,
      tokens: this.deps.tokens,
    });
    this.watchRelayConnection();
  }

  /** Registers `/api/v1/ws` and `/api/v1/spectator/stream` on the uWS app. */
  registerSockets(
    { app, corkAnchor }: { app: TemplatedApp; corkAnchor: CorkAnchor },
    tokens: TokenService,
    metrics: Metrics,
    options: {
      upgradeLimits?: UpgradeLimits;
      socketLeases?: SocketLeases;
      addressLimits?: AddressLimits;
      policy?: Partial<SocketPolicy>;
      limits?: Partial<SocketLimits>;
      /** Who is in a match: with it, typing frames are relayed to the other user. */
      matchUsers?: MatchUsers;
      typing?: Partial<TypingPolicy>;
    } = {},
  ) {
    if (!this.relay) throw new Error('Realtime.start() must run before registerSockets()');
    this.app = app;
    const { matchUsers, typing, ...socketOptions } = options;
    if (matchUsers) {
      const frames = (this.typing = new TypingFrames(matchUsers, this.deps.live, this.deps.logger, typing));
      this.relay.screen((event) => frames.heard(event));
    }
    this.sockets = new EventSockets({
      app,
      tokens,
      replay: this.deps.replay,
      relay: this.relay,
      relayUp: () => this.relayUp(),
      storeAnswers: this.deps.storeAnswers,
      logger: this.deps.logger,
      metrics,
      corkAnchor,
      ...socketOptions,
      ...(this.typing ? { typing: this.typing } : {}),
    });
    this.sockets.register();
  }

  stop() {
    this.inbox?.stop();
    this.sockets?.stop();
  }

  /** Whether this process hears live events; not before a lost link is fully restored (until then a new socket could miss what the restore resends). */
  private relayUp(): boolean {
    return this.deps.subscriberReady() && this.deps.live.listening;
  }

  /**
   * Announcements made while the subscriber connection was down are lost to live delivery (the streams
   * still hold them), so once it is back (subscribed again) every socket is asked to reconnect with `since`
   * and replay them, and every held inbox read looks at its stream again.
   */
  private watchRelayConnection() {
    this.deps.live.onRestored(() => {
      this.deps.logger.info('live event relay reconnected; asking sockets to resume with since');
      this.typing?.forgetMembers();
      this.sockets?.closeAll(CLOSE.relayInterrupted);
      this.inbox?.wakeAll();
    });
  }
}
