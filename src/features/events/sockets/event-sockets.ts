import { DEFAULT_CONFIG } from '../../../config.js';
import { type HttpRequest, type HttpResponse, type TemplatedApp, type us_socket_context_t, type WebSocketBehavior } from 'uWebSockets.js';
import { parseSince } from '../event-ids.js';
import { errors } from '../../../platform/core/errors.js';
import { bearerToken } from '../../../platform/http/bearer.js';
import { toAppError, writeErrorAndClose } from '../../../platform/http/error-reply.js';
import type { Metrics } from '../../../platform/metrics/metrics.js';
import type { Logger } from '../../../platform/logger.js';
import type { TokenPrincipal } from '../../../platform/core/principal.js';
import type { EventReplay } from '../event-replay.js';
import type { TokenService } from '../../accounts/index.js';
import type { AddressLimits } from '../../../platform/limits/address-limits.js';
import type { UpgradeLimits } from '../../../platform/limits/upgrade-limits.js';
import type { SocketLeases } from '../../../platform/limits/socket-lease-repository.js';
import { CLOSE, REFUSAL_CLOSE, type Close } from './close-codes.js';
import type { EventRelay } from './event-relay.js';
import { SocketCaps } from './socket-caps.js';
import type { Socket, SocketData, Target } from './socket-data.js';
import { SocketReplay, type ReplayLimits } from './socket-replay.js';
import { SocketSweeper, type SweepLimits } from './socket-sweeper.js';
import type { TypingFrames } from './typing-frames.js';
import { upgradeAfterAwait } from './upgrade-cork.js';
import type { CorkAnchor } from '../../../platform/http/cork-anchor.js';
import { UpgradeRateLimit } from './upgrade-rate-limit.js';
import { SPECTATOR_TOPIC, userTopic } from '../event-topics.js';

export { CLOSE } from './close-codes.js';

export const USER_SOCKET_PATH = '/api/v1/ws';
export const SPECTATOR_SOCKET_PATH = '/api/v1/spectator/stream';

export type SocketLimits = SweepLimits &
  ReplayLimits & {
    /**
     * uWS's own cap on a socket's unsent bytes: past it uWS drops the frame and `dropped` closes the socket,
     * so no socket holds much more than this in the server's memory, even between two sweeps. Above
     * `slowBytes`, so that the close frame of a socket closed as too slow still fits (past the cap it is
     * dropped too, and the client sees the connection cut instead of 4008).
     */
    maxBackpressure: number;
    /**
     * Seconds without traffic before uWS reaps a silent socket (sendPingsAutomatically). uWS splits it: a
     * ping after all but a margin (4, 8 or 16 s; 8 s of 16), and the margin is both the ping's deadline and
     * how long a socket it was asked to close has to take its close frame before the connection is cut.
     */
    idleTimeoutSeconds: number;
  };

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  slowBytes: 1024 * 1024,
  maxBackpressure: 2 * 1024 * 1024,
  stallMs: 5_000,
  sweepMs: 250,
  idleTimeoutSeconds: 16,
  replayPage: 32,
  replayChunkBytes: 64 * 1024,
  fenceTimeoutMs: 10_000,
};

/** Who may open how many sockets, and how far back a public replay reaches. */
export type SocketPolicy = {
  /** A spectator replay sends at most this many of the newest events (and says so when it skips older ones). */
  spectatorReplayLimit: number;
  /** Open sockets (and upgrades under way) per client address, in this process. */
  maxPerIp: number;
  /** Open sockets (and upgrades under way) per token, in this process. */
  maxPerToken: number;
  /** The client address is the last `X-Forwarded-For` entry (as for HTTP requests). */
  trustProxy: boolean;
};

export const DEFAULT_SOCKET_POLICY: SocketPolicy = {
  spectatorReplayLimit: DEFAULT_CONFIG.SPECTATOR_REPLAY_LIMIT,
  maxPerIp: DEFAULT_CONFIG.WS_MAX_PER_IP,
  maxPerToken: DEFAULT_CONFIG.WS_MAX_PER_TOKEN,
  trustProxy: DEFAULT_CONFIG.TRUST_PROXY,
};

/** What a socket of a route follows, from its upgrade request (the client's address, read before any await). */
type TargetResolver = (authorization: string, query: URLSearchParams, ip: string) => Promise<Target>;

export type EventSocketDeps = {
  app: TemplatedApp;
  tokens: TokenService;
  replay: EventReplay;
  relay: EventRelay;
  /** False while this process cannot hear live events (its pub/sub connection is down): new sockets get 503. */
  relayUp: () => boolean;
  /** Resolves once Redis answers (rejects when it is away or stalled), so an upgrade fails fast with 503 then. */
  storeAnswers: () => Promise<unknown>;
  logger: Logger;
  metrics: Metrics;
  /** Holds the cork while an upgrade decided after an await completes (see CorkAnchor). */
  corkAnchor: CorkAnchor;
  limits?: Partial<SocketLimits>;
  policy?: Partial<SocketPolicy>;
  /** Counts upgrades of `/api/v1/ws` per account across processes (see UpgradeRateLimit); without it they are not limited. */
  upgradeLimits?: UpgradeLimits;
  /** Caps the open `/api/v1/ws` sockets per account across processes; without it only the per-token cap holds. */
  socketLeases?: SocketLeases;
  /** Counts upgrades of `/api/v1/spectator/stream` per client address across processes; without it they are not limited. */
  addressLimits?: AddressLimits;
  /** Relays the typing frames clients send on `/api/v1/ws`; without it every client frame is ignored. */
  typing?: TypingFrames;
};

/**
 * The WebSocket endpoints: `/api/v1/ws` (a user's own events) and `/api/v1/spectator/stream` (the public
 * agent feed). A socket with `since` holds its topic (live events are kept aside), replays the stream
 * after that id, waits for a fence so that every replayed event's announcement has arrived too, then
 * sends the held events newer than the last replayed one and joins the topic in one synchronous step:
 * neither a gap nor a duplicate at the seam.
 *
 * A user's socket lives as long as its token: it is closed when the token expires (4001) and as soon as it
 * no longer holds, told why (REFUSAL_CLOSE: revoked 4003, account suspended 4403, gone 4410), whichever
 * process heard it. Sockets are capped per client address and per token in each
 * process; user upgrades are rate limited per account and spectator upgrades per client address, across
 * processes. A socket that stops reading is closed within seconds (see SocketSweeper), and a replay goes out
 * only as fast as the socket takes it (see SocketReplay), so an unread socket costs little memory.
 */
export class EventSockets {
  private readonly sockets = new Set<Socket>();
  /** Open user sockets by the id of the token they were opened with. */
  private readonly byToken = new Map<string, { claims: TokenPrincipal; sockets: Set<Socket> }>();
  /** Open user sockets by their topic (a few per user), to check right after a user's event went out. */
  private readonly byUserTopic = new Map<string, Set<Socket>>();
  private readonly limits: SocketLimits;
  private readonly policy: SocketPolicy;
  private readonly caps: SocketCaps;
  private readonly upgradeLimit?: UpgradeRateLimit;
  private readonly replay: SocketReplay;
  private readonly sweeper: SocketSweeper;

  constructor(private readonly deps: EventSocketDeps) {
    this.limits = { ...DEFAULT_SOCKET_LIMITS, ...deps.limits };
    this.policy = { ...DEFAULT_SOCKET_POLICY, ...deps.policy };
    this.caps = new SocketCaps(this.policy);
    if (deps.upgradeLimits) this.upgradeLimit = new UpgradeRateLimit(deps.upgradeLimits, deps.logger);
    const end = (ws: Socket, close: Close) => this.end(ws, close);
    this.replay = new SocketReplay(deps.replay, deps.relay, this.limits, end);
    this.sweeper = new SocketSweeper(this.sockets, this.limits, end);
  }

  register() {
    const { app, metrics } = this.deps;
    app.ws<SocketData>(
      USER_SOCKET_PATH,
      this.behavior((authorization, query) => this.userTarget(authorization, query)),
    );
    app.ws<SocketData>(
      SPECTATOR_SOCKET_PATH,
      this.behavior(async (_authorization, query, ip) => {
        await this.deps.addressLimits?.take('spectator_stream', ip);
        return {
          topic: SPECTATOR_TOPIC,
          stream: this.deps.replay.spectatorStream(),
          since: parseSince(query.get('since')),
          replayLimit: this.policy.spectatorReplayLimit,
        };
      }),
    );
    this.deps.tokens.addHolder({
      heldTokens: () => [...this.byToken.values()].map((entry) => entry.claims),
      tokenRefused: (jti, refusal) => {
        for (const ws of this.byToken.get(jti)?.sockets ?? []) this.end(ws, REFUSAL_CLOSE[refusal]);
      },
    });
    this.sweeper.start();
    metrics.gauge('websocket_connections', () => this.sockets.size);
    metrics.gauge('websocket_buffered_bytes', () => this.bufferedBytes);
  }

  get size() {
    return this.sockets.size;
  }

  /** Bytes written to this process's sockets that the clients have not taken yet (held by uWS, beyond the kernel's buffers). */
  get bufferedBytes() {
    let bytes = 0;
    for (const ws of this.sockets) if (!ws.getUserData().closing) bytes += ws.getBufferedAmount();
    return bytes;
  }

  /** Open sockets of the public spectator stream in this process. */
  get spectatorCount() {
    let count = 0;
    for (const ws of this.sockets) if (ws.getUserData().topic === SPECTATOR_TOPIC) count++;
    return count;
  }

  /** Places held against the per-address and per-token caps (zero once every socket has closed). */
  get capsHeld() {
    return this.caps.held;
  }

  /**
   * Right after an event went out to `topic`: closes (4008) those of a user's sockets now more than
   * `slowBytes` behind. A burst to one user can outrun the sweep, and past `maxBackpressure` uWS would drop
   * the close frame too; the spectator topic's frames are small and left to the sweep.
   */
  checkBehind(topic: string) {
    const sockets = this.byUserTopic.get(topic);
    if (!sockets) return;
    for (const ws of sockets) {
      const data = ws.getUserData();
      if (!data.closing && !data.replaying && ws.getBufferedAmount() > this.limits.slowBytes) this.end(ws, CLOSE.tooSlow);
    }
  }

  /** Ends every socket with `close`; clients resume with `since`. */
  closeAll(close: Close) {
    for (const ws of [...this.sockets]) this.end(ws, close);
  }

  stop() {
    this.sweeper.stop();
    this.closeAll(CLOSE.shuttingDown);
  }

  private async userTarget(authorization: string, query: URLSearchParams): Promise<Target> {
    const token = bearerToken(authorization) ?? query.get('access_token');
    if (!token) {
      throw errors.unauthorized('Send the token as "Authorization: Bearer <token>", or (from a browser) as the access_token query parameter.');
    }
    const claims = await this.deps.tokens.verify(token);
    return {
      topic: userTopic(claims.pool, claims.userId),
      stream: this.deps.replay.userStream(claims.pool, claims.userId),
      since: parseSince(query.get('since')),
      claims,
    };
  }

  private behavior(resolve: TargetResolver): WebSocketBehavior<SocketData> {
    return {
      // compression stays at uWS's default, disabled: frames are small and CPU is better spent elsewhere
      maxPayloadLength: 4 * 1024,
      idleTimeout: this.limits.idleTimeoutSeconds,
      sendPingsAutomatically: true,
      maxBackpressure: this.limits.maxBackpressure,
      // Closing is ours to do (`dropped`, the sweep), with a code the client can act on; uWS would only cut the connection.
      closeOnBackpressureLimit: false,
      upgrade: (res, req, context) => this.upgrade(res, req, context, resolve),
      open: (ws) => this.open(ws),
      // A user's socket may say it is typing; anything else a client sends is ignored.
      message: (ws, message, isBinary) => this.deps.typing?.received(ws, message, isBinary),
      drain: (ws) => {
        SocketSweeper.drained(ws);
        ws.getUserData().onDrain?.();
      },
      pong: (ws) => SocketSweeper.ponged(ws),
      // Not from inside the callback: uWS may be publishing to the topic's sockets, which end() unsubscribes from.
      dropped: (ws) => {
        const data = ws.getUserData();
        queueMicrotask(() => {
          if (!data.closed) this.end(ws, CLOSE.tooSlow);
        });
      },
      close: (ws) => {
        const data = ws.getUserData();
        data.closed = true;
        data.onDrain?.();
        this.sockets.delete(ws);
        this.caps.releaseAddress(data.ip);
        if (data.claims) {
          this.caps.releaseToken(data.claims.jti);
          if (data.lease !== undefined) this.deps.socketLeases?.release(data.claims, data.lease);
          const entry = this.byToken.get(data.claims.jti);
          entry?.sockets.delete(ws);
          if (entry?.sockets.size === 0) this.byToken.delete(data.claims.jti);
          const ofTopic = this.byUserTopic.get(data.topic);
          ofTopic?.delete(ws);
          if (ofTopic?.size === 0) {
            this.byUserTopic.delete(data.topic);
            this.deps.typing?.forget(data.topic);
          }
        }
      },
    };
  }

  /** uWS rule: everything of `req` is read before the first await; the response is corked after it. */
  private upgrade(res: HttpResponse, req: HttpRequest, context: us_socket_context_t, resolve: TargetResolver) {
    const key = req.getHeader('sec-websocket-key');
    const protocol = req.getHeader('sec-websocket-protocol');
    const extensions = req.getHeader('sec-websocket-extensions');
    const authorization = req.getHeader('authorization');
    const query = new URLSearchParams(req.getQuery() ?? '');
    const path = req.getUrl();
    const ip = this.clientIp(req, res);
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    // Places taken against the caps while the upgrade is decided: kept by the socket, or given back.
    const taken: { ip?: string; jti?: string; lease?: string; claims?: TokenPrincipal } = {};
    const giveBack = () => {
      if (taken.ip !== undefined) this.caps.releaseAddress(taken.ip);
      if (taken.jti !== undefined) this.caps.releaseToken(taken.jti);
      if (taken.lease !== undefined && taken.claims) this.deps.socketLeases?.release(taken.claims, taken.lease);
    };
    const accept = async (): Promise<Target> => {
      if (!this.deps.relayUp()) throw errors.unavailable();
      this.caps.takeAddress(ip);
      taken.ip = ip;
      const [target] = await Promise.all([resolve(authorization, query, ip), this.deps.storeAnswers()]);
      if (target.claims) {
        this.caps.takeToken(target.claims.jti);
        taken.jti = target.claims.jti;
        taken.claims = target.claims;
        // The rate limit and the account's cap are asked together: one round trip.
        const [limited, leased] = await Promise.allSettled([this.upgradeLimit?.check(target.claims), this.deps.socketLeases?.take(target.claims)]);
        if (leased.status === 'fulfilled') taken.lease = leased.value;
        if (limited.status === 'rejected') throw limited.reason;
        if (leased.status === 'rejected') throw leased.reason;
      }
      return target;
    };
    accept().then(
      (target) => {
        if (aborted) return giveBack();
        const data: SocketData = { ...target, ip, lease: taken.lease, closed: false, closing: false, replaying: target.since !== undefined };
        upgradeAfterAwait(res, data, { key, protocol, extensions }, context, this.deps.corkAnchor);
      },
      (error: unknown) => {
        giveBack();
        if (!aborted) writeErrorAndClose(res, toAppError(error, this.deps.logger, { ip, upgrade: path }));
      },
    );
  }

  /** The client's address, read before the upgrade's first await (uWS rule). */
  private clientIp(req: HttpRequest, res: HttpResponse): string {
    if (this.policy.trustProxy) {
      const last = req.getHeader('x-forwarded-for').split(',').pop()?.trim();
      if (last) return last;
    }
    const ip = Buffer.from(res.getRemoteAddressAsText()).toString();
    return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  }

  private open(ws: Socket) {
    this.sockets.add(ws);
    const data = ws.getUserData();
    if (data.claims) {
      const { jti } = data.claims;
      let entry = this.byToken.get(jti);
      if (!entry) this.byToken.set(jti, (entry = { claims: data.claims, sockets: new Set() }));
      entry.sockets.add(ws);
      let ofTopic = this.byUserTopic.get(data.topic);
      if (!ofTopic) this.byUserTopic.set(data.topic, (ofTopic = new Set()));
      ofTopic.add(ws);
      // Refused while the upgrade was under way.
      const refusal = this.deps.tokens.heldRefusal(data.claims);
      if (refusal) return this.end(ws, REFUSAL_CLOSE[refusal]);
    }
    if (data.since === undefined) {
      ws.subscribe(data.topic);
      return;
    }
    this.replay.run(ws, data.since).catch((error: unknown) => {
      if (data.closed) return;
      this.deps.logger.warn({ err: (error as Error).message, topic: data.topic }, 'websocket replay failed');
      this.end(ws, CLOSE.replayFailed);
    });
  }

  private end(ws: Socket, close: Close) {
    const data = ws.getUserData();
    if (data.closed || data.closing) return;
    data.closing = true;
    ws.end(close.code, close.reason);
  }
}
