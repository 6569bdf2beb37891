import { CLOSE, type Close } from './close-codes.js';
import type { Socket } from './socket-data.js';

/**
 * Every `sweepMs`, closes the live sockets that fell more than `slowBytes` behind (4008) and those whose
 * token has expired (4001). uWS's own backpressure cap only drops frames; this closes with a code the
 * client can act on.
 */
export class SocketSweeper {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly sockets: Iterable<Socket>,
    private readonly options: { slowBytes: number; sweepMs: number },
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

  sweep(now = Date.now()) {
    for (const ws of this.sockets) {
      const data = ws.getUserData();
      if (data.closing) continue;
      if (data.claims && data.claims.exp * 1000 <= now) this.end(ws, CLOSE.tokenExpired);
      else if (!data.replaying && ws.getBufferedAmount() > this.options.slowBytes) this.end(ws, CLOSE.tooSlow);
    }
  }
}
