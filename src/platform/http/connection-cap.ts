import type { HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { AppError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { writeErrorAndClose } from './error-reply.js';
import { addressKey, connectionsByPeer, kernelConnectionsReadable } from './kernel-connections.js';

/** How long an address found at its cap is refused before the kernel is asked again. */
const RECHECK_AT_CAP_MS = 1_000;
/** How often every count is rebuilt from the kernel, which also forgets addresses that went away. */
const SWEEP_MS = 30_000;
/** What a refused client is told to wait (one of its own connections may have closed by then). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Caps the connections one peer address (the socket's, never X-Forwarded-For) holds open at once, so that
 * one client cannot spend the process's file descriptors. uWS reports every connection's open (+1) and
 * close (-1) to `app.filter`, but a closing socket no longer has an address (its descriptor is gone), so a
 * close cannot be told apart from another. The counts here are therefore upper bounds: one more per open.
 * When an address reaches the cap, its true number of connections to this port is read from the kernel
 * (WebSocket connections included) and a connection past the cap is answered at once, before it is read,
 * with a 429 that needs nothing of the request (the same for every refusal), then closed: the client learns
 * why and when to retry instead of seeing a reset, and the descriptor is given back at once.
 */
export class ConnectionCap {
  private readonly counts = new Map<string, number>();
  /** Addresses found at the cap by the kernel: when, so that a flood is refused without a scan each time. */
  private readonly atCapSince = new Map<string, number>();
  private port = 0;
  private sweep?: NodeJS.Timeout;
  private readonly enabled: boolean;
  private readonly refusal: AppError;
  refused = 0;

  constructor(
    app: TemplatedApp,
    private readonly max: number,
    logger: Logger,
  ) {
    this.enabled = max > 0 && kernelConnectionsReadable();
    this.refusal = new AppError(
      'rate_limited',
      `Too many open connections from this address (at most ${max}); close one before opening another.`,
      undefined,
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
      { retry_after_seconds: RETRY_AFTER_SECONDS, limit: max },
    );
    if (max > 0 && !this.enabled) logger.warn('MAX_CONNECTIONS_PER_IP needs /proc/net/tcp (Linux) to count connections: the cap is off here');
    if (this.enabled) {
      app.filter((res, change) => {
        if (change > 0) this.opened(res);
      });
    }
  }

  /** Call once listening: the cap counts the connections to this port. */
  start(port: number) {
    if (!this.enabled) return;
    this.port = port;
    this.sweep = setInterval(() => this.recount(), SWEEP_MS);
    this.sweep.unref();
  }

  stop() {
    clearInterval(this.sweep);
  }

  private opened(res: HttpResponse) {
    const key = addressKey(new Uint8Array(res.getRemoteAddress()));
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count <= this.max || this.port === 0) return;
    const since = this.atCapSince.get(key);
    const now = performance.now();
    if (since === undefined || now - since >= RECHECK_AT_CAP_MS) {
      const table = connectionsByPeer(this.port);
      const actual = table ? (table.get(key) ?? 0) : count;
      this.counts.set(key, actual);
      if (actual <= this.max) {
        this.atCapSince.delete(key);
        return;
      }
      this.atCapSince.set(key, now);
    }
    this.counts.set(key, this.counts.get(key)! - 1);
    this.refused++;
    writeErrorAndClose(res, this.refusal);
  }

  private recount() {
    const actual = connectionsByPeer(this.port);
    if (!actual) return;
    this.counts.clear();
    for (const [key, count] of actual) this.counts.set(key, count);
    this.atCapSince.clear();
  }
}
