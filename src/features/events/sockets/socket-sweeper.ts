import { CLOSE, type Close } from './close-codes.js';
import type { Socket } from './socket-data.js';

export type SweepLimits = {
  /** A live socket with more unsent bytes than this is closed as too slow. */
  slowBytes: number;
  /**
   * A socket (live or replaying) holding unsent bytes of which none went out for this long, or that has not
   * answered the ping sent behind its replay for this long, is closed as not reading.
   */
  stallMs: number;
  sweepMs: number;
};

/**
 * Every `sweepMs`, closes (4008) the live sockets that fell more than `slowBytes` behind and every socket
 * that does not read, and (4001) those whose token has expired. A socket that is read makes uWS call `drain`
 * (see `drained`) each time it writes some of what was waiting; one that is not read gets no `drain`,
 * whatever little it holds, so it is closed after `stallMs`. The kernel's buffers may take a whole replay
 * without the client reading any of it (on loopback, megabytes), so a replay ends with a ping: a client
 * that has not answered it (see `ponged`) within `stallMs` has not read the replay. Either way the socket is
 * closed within seconds instead of holding its buffers until the idle timeout. uWS's own backpressure cap
 * only drops frames; this closes with a code the client can act on.
 */
export class SocketSweeper {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly sockets: Iterable<Socket>,
    private readonly options: SweepLimits,
    private readonly end: (ws: Socket, close: Close) => void,
  ) {}

  start(): this {
    this.timer = setInterval(() => this.sweep(), this.options.sweepMs);
    this.timer.unref();
    return this;
  }

  stop() {
    clearInterval(this.timer);
  }

  /** uWS wrote some of the socket's unsent bytes out: the client is reading. */
  static drained(ws: Socket) {
    ws.getUserData().stalledSince = undefined;
  }

  /** The client answered a ping: it has read everything sent before it. */
  static ponged(ws: Socket) {
    const data = ws.getUserData();
    data.pingedAt = undefined;
    data.stalledSince = undefined;
  }

  sweep(now = Date.now()) {
    for (const ws of this.sockets) {
      const data = ws.getUserData();
      if (data.closing) continue;
      if (data.claims && data.claims.exp * 1000 <= now) {
        this.end(ws, CLOSE.tokenExpired);
        continue;
      }
      if (data.pingedAt !== undefined && now - data.pingedAt >= this.options.stallMs) {
        this.end(ws, CLOSE.notReading);
        continue;
      }
      const unsent = ws.getBufferedAmount();
      if (unsent === 0) data.stalledSince = undefined;
      else if (!data.replaying && unsent > this.options.slowBytes) this.end(ws, CLOSE.tooSlow);
      else if (data.stalledSince === undefined) data.stalledSince = now;
      else if (now - data.stalledSince >= this.options.stallMs) this.end(ws, CLOSE.notReading);
    }
  }
}
