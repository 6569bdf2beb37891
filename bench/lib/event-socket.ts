import WebSocket from 'ws';

/** The key a frame is awaited by: `match:<other user id>` for match.created, `message:<nonce>` for message.created. */
export function frameKey(text: string): string | undefined {
  const nonce = /\[bench:([\w-]+)\]/.exec(text);
  if (nonce && text.includes('"message.created"')) return `message:${nonce[1]}`;
  if (text.includes('"match.created"')) {
    const frame = JSON.parse(text) as { data?: { user?: { id?: number } } };
    if (frame.data?.user?.id !== undefined) return `match:${frame.data.user.id}`;
  }
  return undefined;
}

/** A message body that frames can be recognised by. */
export const taggedBody = (nonce: string, text = 'hello from the bench') => `${text} [bench:${nonce}]`;

/**
 * A WebSocket client of the service's event stream that records when each awaited frame arrives.
 * Arrival times are taken in the message handler, before anything else is done with the frame.
 */
export class EventSocket {
  frames = 0;
  closeCode?: number;
  private readonly arrivals = new Map<string, number>();
  private readonly waiters = new Map<string, (at: number) => void>();

  private constructor(
    private readonly socket: WebSocket,
    track: boolean,
  ) {
    socket.on('message', (data: Buffer) => {
      const at = performance.now();
      this.frames++;
      if (!track) return;
      const key = frameKey(data.toString());
      if (!key) return;
      const waiter = this.waiters.get(key);
      if (waiter) {
        this.waiters.delete(key);
        waiter(at);
      } else this.arrivals.set(key, at);
    });
    socket.on('close', (code) => (this.closeCode = code));
  }

  /** Opens a socket; with `track: false` it only counts frames (cheaper, for background sockets). */
  static open(url: string, options: { token?: string; localAddress?: string; timeoutMs?: number; track?: boolean } = {}): Promise<EventSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, {
        headers: options.token ? { Authorization: `Bearer ${options.token}` } : {},
        perMessageDeflate: false,
        localAddress: options.localAddress,
        handshakeTimeout: options.timeoutMs ?? 10_000,
      });
      socket.once('open', () => resolve(new EventSocket(socket, options.track ?? true)));
      socket.once('unexpected-response', (_req, res) => {
        reject(new Error(`WebSocket upgrade of ${url} answered ${res.statusCode}`));
        socket.terminate();
      });
      socket.once('error', reject);
    });
  }

  /** Arrival time (performance.now()) of the frame with `key`, or undefined after `timeoutMs`. */
  arrival(key: string, timeoutMs: number): Promise<number | undefined> {
    const seen = this.arrivals.get(key);
    if (seen !== undefined) {
      this.arrivals.delete(key);
      return Promise.resolve(seen);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(key);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.set(key, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }

  close() {
    this.socket.close(1000, 'bench done');
    setTimeout(() => this.socket.terminate(), 1_000).unref();
  }
}

export const wsUrl = (baseUrl: string, path: string) => baseUrl.replace(/^http/, 'ws') + path;
