import { randomBytes } from 'node:crypto';
import {
  App,
  us_listen_socket_close,
  us_socket_local_port,
  type HttpRequest,
  type HttpResponse,
  type TemplatedApp,
  type us_listen_socket,
} from 'uWebSockets.js';
import { AppError, errors } from '../domain/errors.js';
import type { Logger } from '../logger.js';
import { isConnectionError, isStoreFullError } from '../services/store-failures.js';
import { ConnectionCap } from './connection-cap.js';
import type { Metrics } from './metrics.js';
import { MAX_BODY_BYTES, parseJsonObject } from './request-body.js';
import { parameterNames, RouteTable } from './router.js';
import type { Auth, Method, Reply, Request, Route } from './types.js';

/** Answers at once (no promise) when it can, sparing the request a turn of the event loop. */
export type Authenticator = (authorization: string | undefined) => Auth | Promise<Auth>;

export type ServerOptions = {
  logger: Logger;
  metrics: Metrics;
  authenticate: Authenticator;
  trustProxy: boolean;
  /** Connections one peer address may hold open at once (0: no cap). */
  maxConnectionsPerIp?: number;
};

const BASE_HEADERS: Array<[string, string]> = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'Retry-After, X-Request-Id, Allow'],
];
const PREFLIGHT_HEADERS: Array<[string, string]> = [
  ['Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, X-Request-Id'],
  ['Access-Control-Max-Age', '600'],
];
const STATUS_TEXT: Record<number, string> = {
  200: '200 OK', 201: '201 Created', 204: '204 No Content', 400: '400 Bad Request', 401: '401 Unauthorized',
  404: '404 Not Found', 405: '405 Method Not Allowed', 409: '409 Conflict', 413: '413 Payload Too Large',
  415: '415 Unsupported Media Type', 429: '429 Too Many Requests', 500: '500 Internal Server Error',
  503: '503 Service Unavailable', 507: '507 Insufficient Storage',
};
const REQUEST_ID_RE = /^[\w.-]{1,64}$/;
/** uWS's ListenOptions.LIBUS_LISTEN_EXCLUSIVE_PORT (the typings declare the enum but do not export it). */
const LISTEN_EXCLUSIVE_PORT = 1;

/**
 * The one place that knows uWS's rules: everything of the request is read before the first `await`,
 * every async response has `onAborted`, every write after an `await` is corked, body chunks are copied,
 * and a body past 64 KiB is refused with 413. Route handlers stay plain async functions.
 */
export class HttpServer {
  readonly app: TemplatedApp = App();
  private readonly table = new RouteTable();
  private listenSocket?: us_listen_socket;
  private inFlight = 0;
  private idle?: () => void;
  private readonly idPrefix = randomBytes(3).toString('hex');
  private nextId = 0;
  private readonly connectionCap: ConnectionCap;

  constructor(private readonly options: ServerOptions) {
    this.connectionCap = new ConnectionCap(this.app, options.maxConnectionsPerIp ?? 0, options.logger);
    options.metrics.gauge('http_connections_refused_total', () => this.connectionCap.refused);
  }

  route(route: Route) {
    this.table.add(route);
    const names = parameterNames(route.path);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'del';
    this.app[method === ('delete' as string) ? 'del' : method](route.path, (res, req) => this.handle(res, req, route, names));
  }

  /** Registers the 404/405 and CORS preflight fallbacks; call after every route. */
  seal() {
    const fallback = (res: HttpResponse, req: HttpRequest) => {
      const path = req.getUrl();
      const method = req.getMethod().toUpperCase();
      const allowed = this.table.allowedMethods(path);
      if (method === 'OPTIONS') {
        res.cork(() => {
          res.writeStatus(allowed.length > 0 ? '204 No Content' : '404 Not Found');
          for (const [k, v] of BASE_HEADERS) res.writeHeader(k, v);
          for (const [k, v] of PREFLIGHT_HEADERS) res.writeHeader(k, v);
          res.endWithoutBody();
        });
        return;
      }
      const error = allowed.length > 0 ? errors.methodNotAllowed(allowed) : errors.notFound('endpoint: check the method and path against /api/v1/openapi.json');
      this.options.metrics.observe('unmatched', error.status, 0);
      this.write(res, this.newRequestId(req.getHeader('x-request-id')), errorReply(error));
    };
    for (const pattern of this.table.patterns) this.app.any(pattern, fallback);
    this.app.any('/*', fallback);
  }

  /** Requests received and not yet answered. */
  get inFlightCount(): number {
    return this.inFlight;
  }

  get routes(): Route[] {
    return this.table.routes;
  }

  /**
   * Listens with the port to itself: by default uWS sets SO_REUSEPORT, and a second process on the same
   * port would start without error and take a share of the connections.
   */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      // The native listen takes (host, port, options, callback); the typings declare only (port, options, callback).
      const listen = this.app.listen as unknown as (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => void;
      listen.call(this.app, host, port, LISTEN_EXCLUSIVE_PORT, (socket) => {
        if (!socket) {
          return reject(new Error(`cannot listen on ${host}:${port}: the port is taken by another process (or the address is not this machine's); stop that process or choose another PORT.`));
        }
        this.listenSocket = socket;
        const bound = us_socket_local_port(socket);
        this.connectionCap.start(bound);
        resolve(bound);
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
    this.connectionCap.stop();
    this.app.close();
  }

  private newRequestId(given: string): string {
    return given && REQUEST_ID_RE.test(given) ? given : `${this.idPrefix}-${(++this.nextId).toString(36)}`;
  }

  private handle(res: HttpResponse, uwsReq: HttpRequest, route: Route, names: string[]) {
    const started = performance.now();
    const headers: Record<string, string> = {};
    uwsReq.forEach((key, value) => {
      headers[key] = value;
    });
    const params: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) params[names[i]!] = decodeParam(uwsReq.getParameter(i) ?? '');
    const request = new ServerRequest(
      res,
      route.method,
      uwsReq.getUrl(),
      params,
      uwsReq.getQuery() ?? '',
      headers,
      this.newRequestId(headers['x-request-id'] ?? ''),
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
        if (route.body) request.body = parseJsonObject(await readBody(res, request), request.headers['content-type']);
        if (route.auth) {
          const auth = this.options.authenticate(request.headers.authorization);
          request.auth = auth instanceof Promise ? await auth : auth;
        }
        reply = await route.handler(request as ServerRequest & { auth: Auth });
      } catch (error) {
        // The client left while sending the body: nothing was done and nobody is there to answer.
        if (error === BODY_ABORTED) return;
        reply = this.replyForError(error, request);
      }
      const ms = performance.now() - started;
      this.options.metrics.observe(route.path, reply.status, ms);
      if (this.options.logger.isLevelEnabled('debug')) {
        this.options.logger.debug({ reqId: request.requestId, method: request.method, path: request.path, status: reply.status, ms: Math.round(ms * 100) / 100 }, 'request');
      }
      if (!request.aborted) this.write(res, request.requestId, reply, reply.status === 413);
    } finally {
      if (--this.inFlight === 0) this.idle?.();
    }
  }

  private replyForError(error: unknown, request: ServerRequest): Reply {
    if (error instanceof AppError) return errorReply(error);
    if (isConnectionError(error)) {
      this.options.logger.warn({ reqId: request.requestId, err: (error as Error).message }, 'store unreachable');
      return errorReply(errors.unavailable());
    }
    if (isStoreFullError(error)) {
      this.options.logger.warn({ reqId: request.requestId, method: request.method, path: request.path }, 'store full: write refused');
      return errorReply(errors.storageFull());
    }
    this.options.logger.error({ reqId: request.requestId, method: request.method, path: request.path, err: error }, 'unhandled error');
    return errorReply(errors.internal());
  }

  private write(res: HttpResponse, requestId: string, reply: Reply, closeConnection = false) {
    res.cork(() => {
      res.writeStatus(STATUS_TEXT[reply.status] ?? String(reply.status));
      res.writeHeader('X-Request-Id', requestId);
      for (const [k, v] of BASE_HEADERS) res.writeHeader(k, v);
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
  auth?: Auth;
  aborted = false;
  /** Called once if the client goes away (set while the body is being read). */
  onAbort?: () => void;
  private parsedQuery?: URLSearchParams;
  private address?: string;

  constructor(
    private readonly res: HttpResponse,
    readonly method: Method,
    readonly path: string,
    readonly params: Record<string, string>,
    private readonly rawQuery: string,
    readonly headers: Record<string, string>,
    readonly requestId: string,
    private readonly trustProxy: boolean,
  ) {}

  abort() {
    this.aborted = true;
    this.onAbort?.();
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
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

export function errorReply(error: AppError): Reply {
  return { status: error.status, json: error.toBody(), headers: error.headers };
}

function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const BODY_ABORTED = new Error('the client went away while sending the body');

/**
 * Reads the whole body, copying each chunk (uWS reuses its buffer), refusing past MAX_BODY_BYTES.
 * Rejects with BODY_ABORTED as soon as the client goes away: uWS sends no more data then.
 */
function readBody(res: HttpResponse, request: ServerRequest): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(errors.payloadTooLarge(MAX_BODY_BYTES));
  if (request.aborted) return Promise.reject(BODY_ABORTED);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    request.onAbort = () => {
      if (done) return;
      done = true;
      reject(BODY_ABORTED);
    };
    res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) {
        done = true;
        return reject(errors.payloadTooLarge(MAX_BODY_BYTES));
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      }
    });
  });
}
