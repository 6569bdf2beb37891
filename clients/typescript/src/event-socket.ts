import type { SocketFrame } from './events.js';

/** Close codes after which the same token cannot reconnect: expired, revoked, account suspended, account gone. */
const FINAL_CLOSE_CODES = new Set([4001, 4003, 4403, 4410]);

export type EventSocketOptions = {
  /** The service's base URL, such as `http://127.0.0.1:8080`. */
  baseUrl: string;
  token: string;
  /** The id of the last event you handled (`0`: every event still kept); without it, live events only. */
  since?: string;
  /** How long to wait before reconnecting after the socket drops; 1 s by default. */
  reconnectDelayMs?: number;
  /** Connections in a row that may fail before opening (a refused upgrade) before the socket gives up; 5 by default. */
  maxFailedConnects?: number;
};

/** The socket ended for good: a close code after which the token cannot reconnect, or upgrades refused again and again. */
export class EventSocketClosed extends Error {
  override readonly name = 'EventSocketClosed';

  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`the event socket closed with ${code}${reason ? ` (${reason})` : ''}`);
  }
}

/**
 * The account's events over the WebSocket `/api/v1/ws`, as an async iterable: `for await (const frame of
 * socket)`. It keeps the id of the last event it received (`since`) and, when the socket drops (a slow
 * reader's 4008, a restart's 1001, a lost connection), reconnects with `?since=` that id, so the events
 * missed meanwhile come first and none twice. `close()` ends the iteration.
 */
export class EventSocket implements AsyncIterable<SocketFrame> {
  /** Resolves once the first connection is open; rejects when the socket gives up before. */
  readonly opened: Promise<void>;
  private socket!: WebSocket;
  private lastId: string | undefined;
  private readonly frames: SocketFrame[] = [];
  private wake?: () => void;
  private failure?: EventSocketClosed;
  private closed = false;
  private failedConnects = 0;
  private markOpened!: () => void;
  private failOpening!: (error: EventSocketClosed) => void;

  constructor(private readonly options: EventSocketOptions) {
    this.lastId = options.since;
    this.opened = new Promise((resolve, reject) => {
      this.markOpened = resolve;
      this.failOpening = reject;
    });
    // Whoever does not wait for the opening learns of a failure from the iteration.
    this.opened.catch(() => undefined);
    this.connect();
  }

  /** The id of the last event received (or the `since` it was opened with): where a reconnect resumes. */
  get since(): string | undefined {
    return this.lastId;
  }

  /** Tells the other user of a match that you are typing (live only; at most one every 2.5 s is relayed). */
  typing(matchId: number): void {
    this.socket.send(JSON.stringify({ type: 'typing', match_id: matchId }));
  }

  close(): void {
    this.closed = true;
    this.socket.close(1000);
    this.wake?.();
  }

  /** Leaving the loop (a `break`, a throw) closes the socket: `since` still says where to resume. */
  async *[Symbol.asyncIterator](): AsyncIterator<SocketFrame> {
    try {
      for (;;) {
        const frame = this.frames.shift();
        if (frame) yield frame;
        else if (this.failure) throw this.failure;
        else if (this.closed) return;
        else await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      this.close();
    }
  }

  /** The token goes in `access_token`: a standard WebSocket cannot set an Authorization header. */
  private url(): URL {
    const url = new URL('/api/v1/ws', this.options.baseUrl.replace(/^http/, 'ws'));
    url.searchParams.set('access_token', this.options.token);
    if (this.lastId !== undefined) url.searchParams.set('since', this.lastId);
    return url;
  }

  private connect(): void {
    const socket = (this.socket = new WebSocket(this.url()));
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.failedConnects = 0;
      this.markOpened();
    };
    socket.onmessage = (message: MessageEvent) => {
      const frame = JSON.parse(String(message.data)) as SocketFrame;
      if ('id' in frame) this.lastId = frame.id;
      this.push(frame);
    };
    socket.onclose = (event: CloseEvent) => this.onClose(event, opened);
  }

  private onClose({ code, reason }: CloseEvent, opened: boolean): void {
    if (this.closed) return;
    if (!opened) this.failedConnects++;
    if (FINAL_CLOSE_CODES.has(code) || this.failedConnects >= (this.options.maxFailedConnects ?? 5)) {
      this.failure = new EventSocketClosed(code, reason);
      this.failOpening(this.failure);
      this.wake?.();
      return;
    }
    setTimeout(() => this.closed || this.connect(), this.options.reconnectDelayMs ?? 1000);
  }

  private push(frame: SocketFrame): void {
    this.frames.push(frame);
    this.wake?.();
  }
}
