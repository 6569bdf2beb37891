import {
  App,
  us_listen_socket_close,
  us_socket_local_port,
  type HttpRequest,
  type HttpResponse,
  type TemplatedApp,
  type us_listen_socket,
} from 'uWebSockets.js';
import { errors } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { BODY_ABORTED, hasBody, readBody } from './body-reader.js';
import { ConnectionCap } from './connection-cap.js';
import { CorkAnchor } from './cork-anchor.js';
import { answerPreflight, writeCorsHeaders } from './cors.js';
import { errorReply, statusLine, toAppError } from './error-reply.js';
import type { Metrics } from '../metrics/metrics.js';
import { parseJsonObject } from './request-body.js';
import { RequestIds } from './request-ids.js';
import { parameterNames, RouteTable } from './router.js';
import type { TokenPrincipal } from '../core/principal.js';
import type { AuthedRequest, Method, Reply, Request, Route } from './types.js';

/** Answers at once (no promise) when it can, sparing the request a turn of the event loop. */
export type Authenticator = (authorization: string | undefined) => TokenPrincipal | Promise<TokenPrincipal>;

export type ServerOptions = {
  logger: Logger;
  metrics: Metrics;
  authenticate: Authenticator;
  trustProxy: boolean;
  /** Connections one peer address may hold open at once (0: no cap). */
  maxConnectionsPerIp?: number;
};

/** Whether a request's `Authorization` header opens a hidden part of the API. */
export type Admits = (authorization: string | undefined) => boolean;

/** uWS's ListenOptions.LIBUS_LISTEN_EXCLUSIVE_PORT (the typings declare the enum but do not export it). */
const LISTEN_EXCLUSIVE_PORT = 1;

/**
 * The uWS adapter: registers routes and the 404/405 fallbacks, runs each request (token, then body, then
 * handler), writes the reply, listens with its port to itself and drains. It keeps uWS's rules: everything
 * of the request is read before the first `await`, every async response has `onAborted`, every write after
 * an `await` is corked. Route handlers stay plain async functions.
 */
export class HttpServer {
  readonly app: TemplatedApp = App();
  private readonly table = new RouteTable();
  private readonly hidden: Array<{ prefix: string; admits: Admits }> = [];
  private listenSocket?: us_listen_socket;
  private inFlight = 0;
  private idle?: () => void;
  private readonly requestIds = new RequestIds();
  private readonly connectionCap: ConnectionCap;
  /** Holds uWS's cork for upgrades completed after an await (see CorkAnchor). */
  readonly corkAnchor: CorkAnchor;

  constructor(private readonly options: ServerOptions) {
    this.connectionCap = new ConnectionCap(this.app, options.maxConnectionsPerIp ?? 0, options.logger);
    this.corkAnchor = new CorkAnchor(options.logger);
    this.corkAnchor.register(this.app);
    options.metrics.gauge('http_connections_refused_total', () => this.connectionCap.refused);
  }

  route(route: Route) {
    this.table.add(route);
    const names = parameterNames(route.path);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'del';
    this.app[method === ('delete' as string) ? 'del' : method](route.path, (res, req) =>
      this.isHidden(req) ? this.unmatched(res, req, []) : this.handle(res, req, route, names),
    );
  }

  /**
   * Hides the paths under `prefix` (`/api/v1/admin` hides `/api/v1/admin` and `/api/v1/admin/…`) from every
   * request that `admits` refuses: they answer it exactly as a path the service does not serve, for every
   * method and whatever its body, decided before the method, the body or a preflight is looked at. Call
   * before `seal`; the routes under it are left out of `publicRoutes`.
   */
  hide(prefix: string, admits: Admits) {
    this.hidden.push({ prefix: prefix.replace(/\/+$/, ''), admits });
  }

  /** Registers the 404/405 and CORS preflight fallbacks; call after every route. */
  seal() {
    const fallback = (res: HttpResponse, req: HttpRequest) => this.unmatched(res, req, this.isHidden(req) ? [] : this.table.allowedMethods(req.getUrl()));
    for (const pattern of this.table.patterns) this.app.any(pattern, fallback);
    this.app.any('/*', fallback);
  }

  /** The answer of a request no route takes: a preflight's, a 405 with the methods the path allows, or a 404. */
  private unmatched(res: HttpResponse, req: HttpRequest, allowed: Method[]) {
    if (req.getMethod().toUpperCase() === 'OPTIONS') return answerPreflight(res, allowed.length > 0);
    const error = allowed.length > 0 ? errors.methodNotAllowed(allowed) : errors.notFound('endpoint: check the method and path against /api/v1/openapi.json');
    this.options.metrics.observe('unmatched', error.status, 0);
    this.write(res, this.requestIds.next(req.getHeader('x-request-id')), errorReply(error));
  }

  private isHidden(req: HttpRequest): boolean {
    if (this.hidden.length === 0) return false;
    const path = req.getUrl();
    return this.hidden.some(({ prefix, admits }) => underPrefix(path, prefix) && !admits(req.getHeader('authorization') || undefined));
  }

  /** Requests received and not yet answered. */
  get inFlightCount(): number {
    return this.inFlight;
  }

  get routes(): Route[] {
    return this.table.routes;
  }

  /** The routes outside every hidden prefix: what the public documents describe. */
  get publicRoutes(): Route[] {
    return this.table.routes.filter((route) => !this.hidden.some(({ prefix }) => underPrefix(route.path, prefix)));
  }

  /**
   * Listens with the port to itself: by default uWS sets SO_REUSEPORT, and a second process on the same
   * port would start without error and take a share of the connections.
   */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      // The native listen takes (host, port, options, callback); the typings declare only (port, options, callback).
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with .call(this.app)
      const listen = this.app.listen as unknown as (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => void;
      listen.call(this.app, host, port, LISTEN_EXCLUSIVE_PORT, (socket) => {
        if (!socket) {
          return reject(
            new Error(
              `cannot listen on ${host}:${port}: the port is taken by another process (or the address is not this machine's); stop that process or choose another PORT.`,
            ),
          );
        }
        this.listenSocket = socket;
        const bound = us_socket_local_port(socket);
        this.connectionCap.start(bound);
        void this.corkAnchor.start(host, bound).then(() => resolve(bound));
      });
    });
  }

  /** Stops accepting connections, then waits (up to `graceMs`) for in-flight requests to finish. */
  async drain(graceMs: number): Promise<void> {
    if (this.listenSocket) us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      this.idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  close() {
    this.corkAnchor.stop();
    this.connectionCap.stop();
    this.app.close();
  }

  private handle(res: HttpResponse, uwsReq: HttpRequest, route: Route, names: string[]) {
    const started = performance.now();
    const headers: Record<string, string> = {};
    collecting = headers;
    uwsReq.forEach(collectHeader);
    const params: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) params[names[i]!] = decodeParam(uwsReq.getParameter(i) ?? '');
    const request = new ServerRequest(
      res,
      route.method,
      uwsReq.getUrl(),
      params,
      uwsReq.getQuery() ?? '',
      headers,
      this.requestIds.next(headers['x-request-id']),
      this.options.trustProxy,
    );
    res.onAborted(() => request.abort());
    this.inFlight++;
    void this.respond(res, request, route, started);
  }

  private async respond(res: HttpResponse, request: ServerRequest, route: Route, started: number) {
    try {
      let reply: Reply;
      try {
        reply = await this.run(res, request, route);
      } catch (error) {
        // The client left while sending the body: nothing was done and nobody is there to answer.
        if (error === BODY_ABORTED) return;
        reply = errorReply(toAppError(error, this.options.logger, { reqId: request.requestId, method: request.method, path: request.path }));
      }
      const ms = performance.now() - started;
      this.options.metrics.observe(route.path, reply.status, ms);
      if (this.options.logger.isLevelEnabled('debug')) {
        this.options.logger.debug(
          { reqId: request.requestId, method: request.method, path: request.path, status: reply.status, ms: Math.round(ms * 100) / 100 },
          'request',
        );
      }
      // A body left unread (refused before it was needed) would be taken for the next request: close instead.
      const unreadBody = route.body === true && !request.bodyRead && hasBody(request.headers);
      if (!request.aborted) this.write(res, request.requestId, reply, reply.status === 413 || unreadBody);
    } finally {
      if (--this.inFlight === 0) this.idle?.();
    }
  }

  /**
   * Authenticates, then reads the body, then calls the handler. A refused token is answered without
   * waiting for the body. uWS drops body data that arrives while no reader is set, so when the token check
   * has to wait (a token not cached yet) the body is taken in meanwhile, and used only once it passes.
   */
  private run(res: HttpResponse, request: ServerRequest, route: Route): Reply | Promise<Reply> {
    if (!route.auth) return route.body ? this.runWithBody(res, request, route) : route.handler(request);
    const checked = this.options.authenticate(request.headers.authorization);
    if (checked instanceof Promise) return this.runOnceVerified(res, request, route, checked);
    request.auth = checked;
    // A cached token and no body (most requests): the handler is called at once, without a wait of its own.
    return route.body ? this.runWithBody(res, request, route) : route.handler(request as AuthedRequest);
  }

  private async runWithBody(res: HttpResponse, request: ServerRequest, route: Route, body?: Promise<Buffer>): Promise<Reply> {
    request.body = parseJsonObject(await (body ?? this.body(res, request)), request.headers['content-type']);
    return route.handler(request as AuthedRequest);
  }

  private async runOnceVerified(res: HttpResponse, request: ServerRequest, route: Route, checked: Promise<TokenPrincipal>): Promise<Reply> {
    let body: Promise<Buffer> | undefined;
    if (route.body) {
      body = this.body(res, request);
      // Awaited only once the token passes; a refused token leaves it unread.
      body.catch(() => {});
    }
    request.auth = await checked;
    return route.body ? this.runWithBody(res, request, route, body) : route.handler(request as AuthedRequest);
  }

  private async body(res: HttpResponse, request: ServerRequest): Promise<Buffer> {
    const raw = await readBody(res, request);
    request.bodyRead = true;
    return raw;
  }

  private write(res: HttpResponse, requestId: string, reply: Reply, closeConnection = false) {
    res.cork(() => {
      res.writeStatus(statusLine(reply.status));
      res.writeHeader('X-Request-Id', requestId);
      writeCorsHeaders(res);
      if (reply.headers) for (const k in reply.headers) res.writeHeader(k, reply.headers[k]!);
      if ('text' in reply) {
        res.writeHeader('Content-Type', reply.contentType);
        res.end(reply.text, closeConnection);
      } else if (reply.json === undefined) {
        res.endWithoutBody(0, closeConnection);
      } else {
        res.writeHeader('Content-Type', 'application/json; charset=utf-8');
        res.writeHeader('Cache-Control', 'no-store');
        res.end(JSON.stringify(reply.json), closeConnection);
      }
    });
  }
}

/**
 * A request as route handlers see it. The query string and the client address are worked out only when
 * read: most routes need neither, and reading the address costs a system call.
 */
class ServerRequest implements Request {
  body: unknown = undefined;
  auth?: TokenPrincipal;
  aborted = false;
  /** The whole body has been read. */
  bodyRead = false;
  /** Called once if the client goes away (set while the body is being read). */
  onAbort?: () => void;
  private aborter?: AbortController;
  private parsedQuery?: URLSearchParams;
  private address?: string;

  constructor(
    private readonly res: HttpResponse,
    readonly method: Method,
    readonly path: string,
    readonly params: Record<string, string>,
    readonly queryString: string,
    readonly headers: Record<string, string>,
    readonly requestId: string,
    private readonly trustProxy: boolean,
  ) {}

  abort() {
    this.aborted = true;
    this.onAbort?.();
    this.aborter?.abort();
  }

  /** Made when first read: most handlers never wait on it. */
  get signal(): AbortSignal {
    if (!this.aborter) {
      this.aborter = new AbortController();
      if (this.aborted) this.aborter.abort();
    }
    return this.aborter.signal;
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.queryString));
  }

  get ip(): string {
    return (this.address ??= this.clientIp());
  }

  private clientIp(): string {
    if (this.trustProxy) {
      const last = this.headers['x-forwarded-for']?.split(',').pop()?.trim();
      if (last) return last;
    }
    // uWS forbids touching a response whose client went away; nothing will be answered then anyway.
    if (this.aborted) return '';
    const ip = Buffer.from(this.res.getRemoteAddressAsText()).toString();
    return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  }
}

/** The headers object `collectHeader` fills: one function for every request rather than a closure each. */
let collecting: Record<string, string> = {};
function collectHeader(key: string, value: string) {
  collecting[key] = value;
}

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
