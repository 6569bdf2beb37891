import { connect, type Socket } from 'node:net';
import { Recorder } from './recorder.js';

/**
 * The load generator: raw keep-alive HTTP/1.1 over plain sockets, one request in flight per connection
 * (no pipelining), many connections at once, every loop bounded by a deadline and a request count.
 * A raw client costs a fraction of node:http's CPU per request, which matters when the generator shares
 * two cores with the server and Redis.
 */

export type LoadRequest = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The operation this request counts under (default: `METHOD path-without-query`). */
  tag?: string;
};

/** One simulated client: a connection's source address and the requests it sends, one after another. */
export type ClientScript = {
  localAddress?: string;
  /** The next request, or null when this client is done (its connection closes and the slot takes a new client). */
  next(): LoadRequest | null;
  onResponse?(request: LoadRequest, status: number, body: Buffer, latencyMs: number): void;
};

export type LoadOptions = {
  host: string;
  port: number;
  /** Several processes of the service on `host`: client i connects to ports[i % ports.length] (instead of `port`). */
  ports?: readonly number[];
  /** Connections open at once (each with one request in flight). */
  connections: number;
  durationMs: number;
  maxRequests?: number;
  /** Measured time starts after this; what completes before is not recorded. */
  warmupMs?: number;
  /** Paces the whole load to about this many requests per second (steady background load). */
  ratePerSecond?: number;
  requestTimeoutMs?: number;
  /** Supplies the client for each slot; null when there are no more clients. */
  client(index: number): ClientScript | null;
  recorder?: Recorder;
  /** Called when measured time starts (at once without a warm-up). */
  onMeasure?(): void;
  /** Called about once a second while running. */
  onTick?(recorder: Recorder, elapsedMs: number): void;
};

export type LoadHandle = { done: Promise<Recorder>; stop(): void };

const CRLFCRLF = Buffer.from('\r\n\r\n');
const NO_BODY = Buffer.alloc(0);

export function tagOf(request: LoadRequest): string {
  if (request.tag) return request.tag;
  const q = request.path.indexOf('?');
  return `${request.method} ${q < 0 ? request.path : request.path.slice(0, q)}`;
}

/** Runs a load and resolves with its recorder when every connection has finished. */
export function runLoad(options: LoadOptions): Promise<Recorder> {
  return startLoad(options).done;
}

export function startLoad(options: LoadOptions): LoadHandle {
  const recorder = options.recorder ?? new Recorder();
  const started = performance.now();
  const warmupMs = options.warmupMs ?? 0;
  const deadline = started + warmupMs + options.durationMs;
  const maxRequests = options.maxRequests ?? Number.MAX_SAFE_INTEGER;
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
  const ports = options.ports && options.ports.length > 0 ? options.ports : [options.port];
  // One Host header for every port: the service does not route by it.
  const hostHeader = `${options.host}:${ports[0]}`;
  const encoded = new WeakMap<LoadRequest, Buffer>();
  const intervalMs = options.ratePerSecond ? (1000 * options.connections) / options.ratePerSecond : 0;
  let issued = 0;
  let clientIndex = 0;
  let openSlots = 0;
  let stopped = false;
  let warm = warmupMs === 0;
  const slots = new Set<Slot>();
  let finish!: (r: Recorder) => void;
  const done = new Promise<Recorder>((resolve) => (finish = resolve));
  if (warm) {
    recorder.reset();
    options.onMeasure?.();
  }

  const encode = (request: LoadRequest): Buffer => {
    let buffer = encoded.get(request);
    if (buffer) return buffer;
    let head = `${request.method} ${request.path} HTTP/1.1\r\nHost: ${hostHeader}\r\n`;
    if (request.headers) for (const name in request.headers) head += `${name}: ${request.headers[name]}\r\n`;
    const body = request.body === undefined ? NO_BODY : Buffer.from(request.body);
    if (request.body !== undefined || request.method !== 'GET') head += `Content-Length: ${body.length}\r\n`;
    buffer = Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]);
    encoded.set(request, buffer);
    return buffer;
  };

  const shouldStop = () => stopped || issued >= maxRequests || performance.now() >= deadline;

  class Slot {
    socket?: Socket;
    client: ClientScript | null = null;
    request?: LoadRequest;
    sentAt = 0;
    nextAt = 0;
    buffer: Buffer | null = null;
    failures = 0;
    private pacing?: NodeJS.Timeout;

    start() {
      slots.add(this);
      this.takeClient();
    }

    private port = ports[0]!;

    private takeClient() {
      const index = clientIndex++;
      this.client = shouldStop() ? null : options.client(index);
      if (!this.client) return this.end();
      this.port = ports[index % ports.length]!;
      this.open();
    }

    private open() {
      const socket = connect({ host: options.host, port: this.port, localAddress: this.client!.localAddress, noDelay: true });
      this.socket = socket;
      this.buffer = null;
      socket.on('connect', () => this.sendNext());
      socket.on('data', (chunk: Buffer) => this.onData(chunk));
      socket.on('error', (error: NodeJS.ErrnoException) => this.onBroken(`net:${error.code ?? 'error'}`));
      socket.on('close', () => this.onBroken('net:closed'));
    }

    private onBroken(outcome: string) {
      const socket = this.socket;
      if (!socket) return;
      this.socket = undefined;
      socket.destroy();
      if (this.request) recorder.fail(tagOf(this.request), outcome);
      this.request = undefined;
      // Counted with or without a request in flight, so that a refused connection backs off and gives up.
      this.failures++;
      if (shouldStop() || this.failures > 20) return this.end();
      setTimeout(() => (shouldStop() ? this.end() : this.open()), Math.min(1000, 10 * 2 ** this.failures));
    }

    sendNext() {
      if (!this.socket) return;
      if (shouldStop()) return this.close();
      if (intervalMs > 0) {
        const now = performance.now();
        if (this.nextAt === 0) this.nextAt = now + Math.random() * intervalMs;
        if (this.nextAt > now) {
          this.pacing = setTimeout(() => {
            this.pacing = undefined;
            this.nextAt = Math.max(this.nextAt, performance.now() - intervalMs) + intervalMs;
            this.write();
          }, this.nextAt - now);
          return;
        }
        this.nextAt = Math.max(this.nextAt, now - intervalMs) + intervalMs;
      }
      this.write();
    }

    private write() {
      if (!this.socket) return;
      if (shouldStop()) return this.close();
      const request = this.client!.next();
      if (!request) {
        this.close();
        return this.takeClient();
      }
      issued++;
      this.request = request;
      this.sentAt = performance.now();
      this.socket.write(encode(request));
    }

    private onData(chunk: Buffer) {
      this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
      const parsed = parseResponse(this.buffer);
      if (!parsed) return;
      this.buffer = parsed.rest.length > 0 ? parsed.rest : null;
      const request = this.request;
      this.request = undefined;
      if (!request) return;
      const now = performance.now();
      const latency = now - this.sentAt;
      this.failures = 0;
      recorder.record(tagOf(request), parsed.status, latency, now);
      this.client!.onResponse?.(request, parsed.status, parsed.body, latency);
      if (parsed.close) {
        this.close();
        if (!shouldStop()) this.open();
        else this.end();
        return;
      }
      this.sendNext();
    }

    checkTimeout(now: number) {
      if (this.request && now - this.sentAt > timeoutMs) this.onBroken('timeout');
    }

    close() {
      const socket = this.socket;
      this.socket = undefined;
      if (this.pacing) clearTimeout(this.pacing);
      if (socket) {
        socket.removeAllListeners('close');
        socket.on('error', () => {});
        socket.end();
        socket.destroy();
      }
      if (shouldStop()) this.end();
    }

    end() {
      if (!slots.delete(this)) return;
      if (this.socket) this.close();
      if (--openSlots === 0) complete();
    }

    kill() {
      if (this.request) recorder.fail(tagOf(this.request), 'timeout');
      this.request = undefined;
      this.close();
      this.end();
    }
  }

  let lastTick = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    if (!warm && now - started >= warmupMs) {
      warm = true;
      recorder.reset();
      options.onMeasure?.();
    }
    for (const slot of slots) slot.checkTimeout(now);
    if (now > deadline + timeoutMs) for (const slot of [...slots]) slot.kill();
    const elapsed = now - started - warmupMs;
    if (warm && options.onTick && elapsed - lastTick >= 1000) {
      lastTick = elapsed;
      options.onTick(recorder, elapsed);
    }
  }, 250);

  const complete = () => {
    clearInterval(ticker);
    recorder.stop();
    finish(recorder);
  };

  const count = Math.max(1, options.connections);
  openSlots = count;
  for (let i = 0; i < count; i++) new Slot().start();

  return {
    done,
    stop() {
      stopped = true;
    },
  };
}

type Parsed = { status: number; body: Buffer; rest: Buffer; close: boolean };

/** Parses one complete HTTP/1.1 response at the start of `buffer`, or returns null when more bytes are needed. */
export function parseResponse(buffer: Buffer): Parsed | null {
  const headEnd = buffer.indexOf(CRLFCRLF);
  if (headEnd < 0) return null;
  const head = buffer.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const close = /\r\nconnection:[ \t]*close/i.test(head);
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { status, body: NO_BODY, rest: buffer.subarray(bodyStart), close };
  }
  const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    if (buffer.length < end) return null;
    return { status, body: buffer.subarray(bodyStart, end), rest: buffer.subarray(end), close };
  }
  if (/\r\ntransfer-encoding:[ \t]*chunked/i.test(head)) return parseChunked(buffer, bodyStart, status, close);
  // No length: the body runs to the end of the connection; treat what we have as complete.
  return { status, body: buffer.subarray(bodyStart), rest: NO_BODY, close: true };
}

function parseChunked(buffer: Buffer, start: number, status: number, close: boolean): Parsed | null {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) return { status, body: NO_BODY, rest: NO_BODY, close: true };
    if (size === 0) {
      const trailerEnd = buffer.indexOf(CRLFCRLF, lineEnd);
      if (trailerEnd < 0) return null;
      return { status, body: Buffer.concat(parts), rest: buffer.subarray(trailerEnd + 4), close };
    }
    const dataEnd = lineEnd + 2 + size;
    if (buffer.length < dataEnd + 2) return null;
    parts.push(buffer.subarray(lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
}
