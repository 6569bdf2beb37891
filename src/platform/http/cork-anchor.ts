import { randomBytes } from 'node:crypto';
import type { TemplatedApp, WebSocket as UwsSocket } from 'uWebSockets.js';
import type { Logger } from '../logger.js';

/** The anchor's path; answered only to the key this process made, so nobody else can open one. */
export const CORK_ANCHOR_PATH = '/internal/cork-anchor';
const RECONNECT_MS = 1_000;

/**
 * A WebSocket this process holds open to itself, so that a socket is always there to hold uWS's cork.
 *
 * A response written after an await must be corked, and for an upgrade that is a trap in this uWS version:
 * `res.cork()` outside uWS's own callbacks can close the socket it has just upgraded (it reads the HTTP
 * response's state from memory that has become the WebSocket's: uNetworking/uWebSockets#1929, seen as a
 * 1006 right after open). It skips that check when another socket holds the cork, so the upgrade is corked
 * inside this socket's cork. Without it (before it is open, or while it reconnects) the upgrade goes
 * uncorked, which works but makes uWS print a warning.
 *
 * Costs one loopback connection per process (counted against MAX_CONNECTIONS_PER_IP like any other).
 */
export class CorkAnchor {
  private readonly key = randomBytes(16).toString('hex');
  private server?: UwsSocket<unknown>;
  private client?: WebSocket;
  private url?: string;
  private reconnect?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  /** Registers the anchor's endpoint; call before the app's fallback routes. */
  register(app: TemplatedApp) {
    app.ws(CORK_ANCHOR_PATH, {
      idleTimeout: 0,
      maxPayloadLength: 16,
      upgrade: (res, req, context) => {
        if (req.getQuery('key') !== this.key || this.server) {
          res.writeStatus('404 Not Found').end();
          return;
        }
        res.upgrade({}, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context);
      },
      open: (ws) => {
        this.server = ws;
      },
      close: (ws) => {
        if (this.server === ws) this.server = undefined;
      },
    });
  }

  /** Opens the anchor to this process, listening on `host`:`port`; resolves once it is open, or failed to open. */
  start(host: string, port: number): Promise<void> {
    const loopback = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
    this.url = `ws://${loopback}:${port}${CORK_ANCHOR_PATH}?key=${this.key}`;
    return this.connect();
  }

  /** Runs `fn` while the anchor holds the cork, and answers true; false, without running it, while the anchor is not open. */
  cork(fn: () => void): boolean {
    if (!this.server) return false;
    this.server.cork(fn);
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.reconnect);
    this.client?.close();
    this.client = undefined;
  }

  private connect(): Promise<void> {
    if (this.stopped || !this.url) return Promise.resolve();
    const client = new WebSocket(this.url);
    this.client = client;
    return new Promise((settled) => {
      client.addEventListener('open', () => settled());
      client.addEventListener('close', () => {
        settled();
        if (this.client !== client || this.stopped) return;
        this.logger.debug('cork anchor closed; reopening');
        this.reconnect = setTimeout(() => void this.connect(), RECONNECT_MS);
        this.reconnect.unref();
      });
    });
  }
}
