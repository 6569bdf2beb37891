import {
  type HttpRequest,
  type HttpResponse,
  type TemplatedApp,
  type us_socket_context_t,
  type WebSocket,
  type WebSocketBehavior,
} from 'uWebSockets.js';
import { compareEventIds, parseSince } from '../domain/event-ids.js';
import { AppError, errors } from '../domain/errors.js';
import type { Metrics } from '../http/metrics.js';
import { errorReply } from '../http/server.js';
import type { Logger } from '../logger.js';
import type { TokenClaims, TokenService } from '../services/token-service.js';
import type { EventStreams, StoredEvent } from '../store/event-streams.js';
import { keys } from '../store/keys.js';
import type { RateLimiter } from '../store/rate-limiter.js';
import { isConnectionError } from '../services/store-failures.js';
import type { EventRelay } from './event-relay.js';
import { replayStart } from './replay-window.js';
import { SocketCaps } from './socket-caps.js';
import { UpgradeRateLimit } from './upgrade-rate-limit.js';
import { SPECTATOR_TOPIC, userTopic } from './topics.js';

export const USER_SOCKET_PATH = '/api/v1/ws';
export const SPECTATOR_SOCKET_PATH = '/api/v1/spectator/stream';

/** Close codes and reasons a client can act on (the reason is at most 123 bytes). */
export const CLOSE = {
  tooSlow: { code: 4008, reason: 'too slow; reconnect with since=<last id>' },
  tokenExpired: { code: 4001, reason: 'token expired; log in again, then reconnect with since=<last id>' },
  tokenRevoked: { code: 4003, reason: 'token revoked; log in again' },
  shuttingDown: { code: 1001, reason: 'server shutting down; reconnect with since=<last id>' },
  relayInterrupted: { code: 1012, reason: 'live relay was interrupted; reconnect with since=<last id>' },
  replayFailed: { code: 1011, reason: 'could not replay; reconnect with since=<last id>' },
} as const;

export type SocketLimits = {
  /** A live socket with more unsent bytes than this is closed as too slow (checked every `sweepMs`). */
  slowBytes: number;
  /** uWS's own cap per socket, the last line of defence: past it uWS drops frames (and the socket is closed). */
  maxBackpressure: number;
  sweepMs: number;
  /** Seconds without traffic before uWS pings (sendPingsAutomatically) and then reaps a silent socket. */
  idleTimeoutSeconds: number;
  /** Events per XRANGE page during replay. */
  replayPage: number;
  /** How long a replay waits for a socket to drain before calling it too slow. */
  replayDrainMs: number;
};

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  slowBytes: 1024 * 1024,
  maxBackpressure: 16 * 1024 * 1024,
  sweepMs: 250,
  idleTimeoutSeconds: 32,
  replayPage: 200,
  replayDrainMs: 10_000,
};

/** Who may open how many sockets, and how far back a public replay reaches. */
export type SocketPolicy = {
  /** A spectator replay sends at most this many of the newest events (and says so when it skips older ones). */
  spectatorReplayLimit: number;
  /** Open sockets (and upgrades under way) per client address, in this process. */
  maxPerIp: number;
  /** Open sockets (and upgrades under way) per token, in this process. */
  maxPerToken: number;
  /** Upgrades of `/api/v1/ws` per account per window, counted in Redis across every process (see UpgradeRateLimit). */
  upgradeRateLimit: number;
  upgradeRateWindowSeconds: number;
  /** The client address is the last `X-Forwarded-For` entry (as for HTTP requests). */
  trustProxy: boolean;
};

export const DEFAULT_SOCKET_POLICY: SocketPolicy = {
  spectatorReplayLimit: 500,
  maxPerIp: 256,
  maxPerToken: 8,
  upgradeRateLimit: 120,
  upgradeRateWindowSeconds: 60,
  trustProxy: false,
};

/**
 * What a socket follows: its uWS topic, the stream it replays from, where to start, how far back a replay
 * may reach, and (for a user's socket) the token it was opened with.
 */
type Target = { topic: string; streamKey: string; since?: string; replayLimit?: number; claims?: TokenClaims };

type SocketData = Target & { ip: string; closed: boolean; closing: boolean; replaying: boolean; onDrain?: () => void };

type Socket = WebSocket<SocketData>;

export type EventSocketDeps = {
  app: TemplatedApp;
  tokens: TokenService;
  streams: EventStreams;
  relay: EventRelay;
  /** False while this process cannot hear live events (its pub/sub connection is down): new sockets get 503. */
  relayUp: () => boolean;
  /** Resolves once Redis answers (rejects when it is away or stalled), so an upgrade fails fast with 503 then. */
  storeAnswers: () => Promise<unknown>;
  logger: Logger;
  metrics: Metrics;
  limits?: Partial<SocketLimits>;
  policy?: Partial<SocketPolicy>;
  /** Counts upgrades per account across processes; without it upgrades are not rate limited. */
  rateLimiter?: RateLimiter;
};

const STATUS_LINE: Record<number, string> = {
  400: '400 Bad Request',
  401: '401 Unauthorized',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

/**
 * The WebSocket endpoints: `/api/v1/ws` (a user's own events) and `/api/v1/spectator/stream` (the public
 * agent feed). A socket with `since` holds its topic (live events are kept aside), replays the stream
 * after that id, waits for a fence so that every replayed event's announcement has arrived too, then
 * sends the held events newer than the last replayed one and joins the topic in one synchronous step:
 * neither a gap nor a duplicate at the seam.
 *
 * A user's socket lives as long as its token: it is closed (4001) when the token expires and (4003) as soon
 * as the token is revoked, in whichever process. Sockets are capped per client address and per token in each
 * process, and user upgrades are rate limited per account across processes.
 */
export class EventSockets {
  private readonly sockets = new Set<Socket>();
  /** Open user sockets by the id of the token they were opened with. */
  private readonly byToken = new Map<string, { claims: TokenClaims; sockets: Set<Socket> }>();
  private readonly limits: SocketLimits;
  private readonly policy: SocketPolicy;
  private readonly caps: SocketCaps;
  private readonly upgradeLimit?: UpgradeRateLimit;
  private sweepTimer?: NodeJS.Timeout;

  constructor(private readonly deps: EventSocketDeps) {
    this.limits = { ...DEFAULT_SOCKET_LIMITS, ...deps.limits };
    this.policy = { ...DEFAULT_SOCKET_POLICY, ...deps.policy };
    this.caps = new SocketCaps(this.policy);
    if (deps.rateLimiter) {
      this.upgradeLimit = new UpgradeRateLimit(deps.rateLimiter, this.policy.upgradeRateLimit, this.policy.upgradeRateWindowSeconds, deps.logger);
    }
  }

  register() {
    const { app, metrics } = this.deps;
    app.ws<SocketData>(USER_SOCKET_PATH, this.behavior((authorization, query) => this.userTarget(authorization, query)));
    app.ws<SocketData>(
      SPECTATOR_SOCKET_PATH,
      this.behavior(async (_authorization, query) => ({
        topic: SPECTATOR_TOPIC,
        streamKey: keys.spectatorEvents('agent'),
        since: parseSince(query.get('since')),
        replayLimit: this.policy.spectatorReplayLimit,
      })),
    );
    this.deps.tokens.addHolder({
      heldTokens: () => [...this.byToken.values()].map((entry) => entry.claims),
      tokenRevoked: (jti) => {
        for (const ws of this.byToken.get(jti)?.sockets ?? []) this.end(ws, CLOSE.tokenRevoked);
      },
    });
    this.sweepTimer = setInterval(() => this.sweep(), this.limits.sweepMs);
    this.sweepTimer.unref();
    metrics.gauge('websocket_connections', () => this.sockets.size);
  }

  get size() {
    return this.sockets.size;
  }

  /** Places held against the per-address and per-token caps (zero once every socket has closed). */
  get capsHeld() {
    return this.caps.held;
  }

  /** Ends every socket with `close`; clients resume with `since`. */
  closeAll(close: { code: number; reason: string }) {
    for (const ws of [...this.sockets]) this.end(ws, close);
  }

  stop() {
    clearInterval(this.sweepTimer);
    this.closeAll(CLOSE.shuttingDown);
  }

  private async userTarget(authorization: string, query: URLSearchParams): Promise<Target> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (authorization && !match) throw errors.unauthorized('The Authorization header must be "Bearer <token>".');
    const token = match?.[1] ?? query.get('access_token');
    if (!token) {
      throw errors.unauthorized('Send the token as "Authorization: Bearer <token>", or (from a browser) as the access_token query parameter.');
    }
    const claims = await this.deps.tokens.verify(token);
    return {
      topic: userTopic(claims.pool, claims.userId),
      streamKey: keys.userEvents(claims.pool, claims.userId),
      since: parseSince(query.get('since')),
      claims,
    };
  }

  private behavior(resolve: (authorization: string, query: URLSearchParams) => Promise<Target>): WebSocketBehavior<SocketData> {
    return {
      // compression stays at uWS's default, disabled: frames are small and CPU is better spent elsewhere
      maxPayloadLength: 4 * 1024,
      idleTimeout: this.limits.idleTimeoutSeconds,
      sendPingsAutomatically: true,
      maxBackpressure: this.limits.maxBackpressure,
      // Closing is ours to do (sweep), with a code the client can act on; uWS would only cut the connection.
      closeOnBackpressureLimit: false,
      upgrade: (res, req, context) => this.upgrade(res, req, context, resolve),
      open: (ws) => this.open(ws),
      // Clients have nothing to say on these sockets; whatever they send is ignored.
      message: () => {},
      drain: (ws) => ws.getUserData().onDrain?.(),
      dropped: (ws) => this.end(ws, CLOSE.tooSlow),
      close: (ws) => {
        const data = ws.getUserData();
        data.closed = true;
        data.onDrain?.();
        this.sockets.delete(ws);
        this.caps.releaseAddress(data.ip);
        if (data.claims) {
          this.caps.releaseToken(data.claims.jti);
          const entry = this.byToken.get(data.claims.jti);
          entry?.sockets.delete(ws);
          if (entry?.sockets.size === 0) this.byToken.delete(data.claims.jti);
        }
      },
    };
  }

  /** uWS rule: everything of `req` is read before the first await; the response is corked after it. */
  private upgrade(
    res: HttpResponse,
    req: HttpRequest,
    context: us_socket_context_t,
    resolve: (authorization: string, query: URLSearchParams) => Promise<Target>,
  ) {
    const key = req.getHeader('sec-websocket-key');
    const protocol = req.getHeader('sec-websocket-protocol');
    const extensions = req.getHeader('sec-websocket-extensions');
    const authorization = req.getHeader('authorization');
    const query = new URLSearchParams(req.getQuery() ?? '');
    const ip = this.clientIp(req, res);
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    // Places taken against the caps while the upgrade is decided: kept by the socket, or given back.
    const taken: { ip?: string; jti?: string } = {};
    const giveBack = () => {
      if (taken.ip !== undefined) this.caps.releaseAddress(taken.ip);
      if (taken.jti !== undefined) this.caps.releaseToken(taken.jti);
    };
    const accept = async (): Promise<Target> => {
      if (!this.deps.relayUp()) throw errors.unavailable();
      this.caps.takeAddress(ip);
      taken.ip = ip;
      const [target] = await Promise.all([resolve(authorization, query), this.deps.storeAnswers()]);
      if (target.claims) {
        this.caps.takeToken(target.claims.jti);
        taken.jti = target.claims.jti;
        await this.upgradeLimit?.check(`${target.claims.pool}:${target.claims.userId}`);
      }
      return target;
    };
    accept().then(
      (target) => {
        if (aborted) return giveBack();
        const data: SocketData = { ...target, ip, closed: false, closing: false, replaying: target.since !== undefined };
        const anchor = this.corkAnchor();
        if (anchor) anchor.cork(() => res.cork(() => res.upgrade(data, key, protocol, extensions, context)));
        // Without one, an upgrade completed after an await goes uncorked (uWS prints a warning) rather than risk it.
        else res.upgrade(data, key, protocol, extensions, context);
      },
      (error: unknown) => {
        giveBack();
        if (!aborted) this.refuse(res, error);
      },
    );
  }

  /**
   * An open socket to hold uWS's cork while an upgrade decided after an await completes. In this uWS version
   * `res.cork()` called outside uWS's own callbacks can close the socket it has just upgraded (it reads the
   * HTTP response's state from memory that has become the WebSocket's: uNetworking/uWebSockets#1929, seen
   * here as a 1006 right after open). It skips that check when another socket holds the cork. Inside uWS's
   * own upgrade callback (no await taken) the response is corked already and either way is the same.
   */
  private corkAnchor(): Socket | undefined {
    for (const ws of this.sockets) if (!ws.getUserData().closing) return ws;
    return undefined;
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

  private refuse(res: HttpResponse, error: unknown) {
    let appError: AppError;
    if (error instanceof AppError) appError = error;
    else if (isConnectionError(error)) appError = errors.unavailable();
    else {
      this.deps.logger.error({ err: error }, 'websocket upgrade failed');
      appError = errors.internal();
    }
    const reply = errorReply(appError);
    res.cork(() => {
      res.writeStatus(STATUS_LINE[reply.status] ?? String(reply.status));
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.writeHeader(name, value);
      res.writeHeader('Content-Type', 'application/json; charset=utf-8');
      res.writeHeader('Cache-Control', 'no-store');
      res.end(JSON.stringify('json' in reply ? reply.json : {}), true);
    });
  }

  private open(ws: Socket) {
    this.sockets.add(ws);
    const data = ws.getUserData();
    if (data.claims) {
      const { jti } = data.claims;
      let entry = this.byToken.get(jti);
      if (!entry) this.byToken.set(jti, (entry = { claims: data.claims, sockets: new Set() }));
      entry.sockets.add(ws);
      // Revoked while the upgrade was under way.
      if (this.deps.tokens.isRevoked(jti)) return this.end(ws, CLOSE.tokenRevoked);
    }
    if (data.since === undefined) {
      ws.subscribe(data.topic);
      return;
    }
    this.replay(ws, data, data.since).catch((error: unknown) => {
      if (data.closed) return;
      this.deps.logger.warn({ err: (error as Error).message, topic: data.topic }, 'websocket replay failed');
      this.end(ws, CLOSE.replayFailed);
    });
  }

  private async replay(ws: Socket, data: SocketData, since: string) {
    const hold = this.deps.relay.hold(data.topic);
    try {
      let last = since;
      let window: StoredEvent[] | undefined;
      if (data.replayLimit !== undefined) {
        const start = await replayStart(this.deps.streams, data.streamKey, since, data.replayLimit);
        if (data.closed) return;
        if (start.truncated) {
          ws.send(start.frame);
          window = start.events;
        }
      }
      for (;;) {
        const page = window ?? (await this.deps.streams.after(data.streamKey, last, this.limits.replayPage));
        window = undefined;
        if (data.closed) return;
        if (page.length > 0) {
          ws.cork(() => {
            for (const event of page) ws.send(event.frame);
          });
          last = page[page.length - 1]!.id;
        }
        if (hold.overflowed) return this.end(ws, CLOSE.tooSlow);
        if (page.length < this.limits.replayPage) break;
        if (!(await this.drained(ws, data))) return;
      }
      // Every event the replay read has now been announced here too, so the hold has what came after.
      await this.deps.relay.fence(this.limits.replayDrainMs);
      if (data.closed) return;
      if (hold.overflowed) return this.end(ws, CLOSE.tooSlow);
      // The seam: no await from here on, so no live event can slip between these sends and subscribe().
      const lastReplayed = last;
      ws.cork(() => {
        for (const event of hold.events) if (compareEventIds(event.id, lastReplayed) > 0) ws.send(event.frame);
      });
      ws.subscribe(data.topic);
      data.replaying = false;
    } finally {
      this.deps.relay.release(hold);
    }
  }

  /** Waits until the socket has room for another replay page; false (and the socket closed) when it does not get it in time. */
  private async drained(ws: Socket, data: SocketData): Promise<boolean> {
    const deadline = Date.now() + this.limits.replayDrainMs;
    while (!data.closed && ws.getBufferedAmount() > this.limits.slowBytes / 2) {
      if (Date.now() >= deadline) {
        this.end(ws, CLOSE.tooSlow);
        return false;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        data.onDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      data.onDrain = undefined;
    }
    return !data.closed;
  }

  /** Closes live sockets that fall too far behind, and those whose token has expired. */
  private sweep() {
    const now = Date.now();
    for (const ws of this.sockets) {
      const data = ws.getUserData();
      if (data.closing) continue;
      if (data.claims && data.claims.exp * 1000 <= now) this.end(ws, CLOSE.tokenExpired);
      else if (!data.replaying && ws.getBufferedAmount() > this.limits.slowBytes) this.end(ws, CLOSE.tooSlow);
    }
  }

  private end(ws: Socket, close: { code: number; reason: string }) {
    const data = ws.getUserData();
    if (data.closed || data.closing) return;
    data.closing = true;
    ws.end(close.code, close.reason);
  }
}
