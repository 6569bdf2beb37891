import { connect, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { Queue } from './queue.js';
import { reconnectDelay } from './reconnect-delay.js';
import { ReplicasBehindError } from './redis-errors.js';
import { encode, encodeScriptCall, ReplyError, RespReader, type Word } from './resp.js';

export type ScriptSource = { lua: string; sha: string };

type Waiter = {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  sentAt: number;
  /** For EVALSHA: the call, to send again as EVAL if Redis answers NOSCRIPT. */
  script?: ScriptCall;
  /** What the reply is resolved with, when not the reply itself (a script's decoder). */
  decode?: (reply: unknown) => unknown;
};
type ScriptCall = { lua: string; keys: readonly string[]; args: readonly Word[]; asking: boolean };

export type ScriptConnectionOptions = {
  /** Called each time the connection drops or an attempt to reconnect fails (a Redis Cluster re-reads its slot map). */
  onDrop?: () => void;
};

const CLOSED = 'Connection is closed.';
const ASKING = encode(['ASKING']);

/**
 * "Connection is closed." (so isConnectionError counts it as Redis unreachable), saying whether the call
 * was written to the connection: `sent` may have run and is never sent again; a call never sent (the
 * connection was not ready, or closed before the call went out) may be sent elsewhere, e.g. to the replica
 * promoted in place of a dead master.
 */
export class ConnectionClosedError extends Error {
  constructor(
    readonly sent: boolean,
    detail = '',
  ) {
    super(detail ? `${CLOSED} ${detail}` : CLOSED);
  }
}

/** True for a call that failed without ever being written to a connection: sending it elsewhere cannot run it twice. */
export const neverSent = (error: unknown): boolean => error instanceof ConnectionClosedError && !error.sent;

/**
 * A hot connection to one Redis node that runs Lua scripts (EVALSHA, then EVAL once on NOSCRIPT) and
 * plain commands, for the busiest calls of the request path (on a Redis Cluster, one per master behind
 * SlotRoutedConnection). With 16 calls in flight a call costs 2-7 µs of this process's CPU, a string
 * append and a small RESP parse, against 3.5-6 times that through ioredis (a command object, a promise
 * chain and a timer per call, a pipeline object per batch, a general reply decoder; bench/README.md,
 * *Redis clients*). Calls made in the same turn of the event loop go out in one write. It behaves like
 * the main client where it matters: no offline queue (while Redis is away a call fails at once with
 * "Connection is closed.", a ConnectionClosedError not `sent`), a command timeout, and reconnection forever
 * with a capped back-off. A call in flight when the connection drops fails (`sent`: it may have run) and is
 * not resent (a script is not idempotent). A connection is
 * ready only once Redis has answered a PING on it, so while Redis is connected but stalled (a call timed
 * out, the connection was dropped and the new one waits for its PONG) calls fail at once instead of each
 * waiting out the timeout.
 */
export class ScriptConnection {
  private socket?: Socket;
  /** The socket is connected (handshake commands may go out). */
  private connected = false;
  /** Redis answered on this connection: calls may go out. */
  private ready = false;
  private stopped = false;
  private attempt = 0;
  private readonly waiters = new Queue<Waiter>();
  private out = '';
  /** The waiters at the queue's end whose commands are still in `out`, not yet written. */
  private unwritten = 0;
  private flushScheduled = false;
  /** The WAIT in the batch not yet written, which every write answered before it is written shares. */
  private batchWait?: { replicas: number; timeoutMs: number; answer: Promise<number> };
  private readonly reader = new RespReader();
  private reconnectTimer?: NodeJS.Timeout;
  private readonly timeoutTimer: NodeJS.Timeout;
  private readonly url: URL;

  constructor(
    url: string,
    private readonly commandTimeoutMs = 1_000,
    private readonly options: ScriptConnectionOptions = {},
  ) {
    this.url = new URL(url);
    this.timeoutTimer = setInterval(() => this.checkTimeout(), Math.max(25, Math.min(250, commandTimeoutMs / 4)));
    this.timeoutTimer.unref();
  }

  /** Opens the connection; rejects if the first attempt fails. Later drops reconnect by themselves. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => this.open(resolve, reject));
  }

  /**
   * Runs a script by SHA, sending its source only if Redis does not have it cached. `decode`: what the call
   * resolves with instead of the raw reply (a script's decoder, run as the reply is read). `asking`: preceded
   * by ASKING (a Redis Cluster's ASK redirection to a node importing the slot), its EVAL too.
   */
  evalsha(script: ScriptSource, keys: readonly string[], args: readonly Word[], decode?: (reply: unknown) => unknown, asking = false): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (asking) this.asking();
      const call = { lua: script.lua, keys, args, asking };
      this.send({ resolve, reject, sentAt: performance.now(), script: call, decode }, encodeScriptCall('EVALSHA', script.sha, keys, args));
    });
  }

  /** Like `evalsha`, answered only once `replicas` replicas hold what it wrote (see `replicated`); else ReplicasBehindError. */
  async evalshaReplicated(
    script: ScriptSource,
    keys: readonly string[],
    args: readonly Word[],
    replicas: number,
    timeoutMs: number,
    asking = false,
  ): Promise<unknown> {
    const reply = await this.evalsha(script, keys, args, undefined, asking);
    const confirmed = await this.replicated(replicas, timeoutMs).catch(() => -1);
    if (confirmed < replicas) throw new ReplicasBehindError(confirmed, replicas);
    return reply;
  }

  /** Fields of a hash (HGET, HMGET): the plain reads of the request path that go with its scripts. */
  hget(key: string, field: string): Promise<string | null> {
    return this.call(['HGET', key, field]) as Promise<string | null>;
  }

  hmget(key: string, fields: readonly string[]): Promise<Array<string | null>> {
    return this.call(['HMGET', key, ...fields]) as Promise<Array<string | null>>;
  }

  /** A plain command on `key` (the connection serves every key of its node): see HotConnection. */
  read(_key: string, words: readonly Word[]): Promise<unknown> {
    return this.call(words);
  }

  /** Any other command, its reply as ioredis returns it; `asking` as for evalsha. */
  call(words: readonly Word[], asking = false): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (asking) this.asking();
      this.send({ resolve, reject, sentAt: performance.now() }, encode(words));
    });
  }

  /**
   * How many replicas hold every write this connection has had answered (WAIT `replicas` `timeoutMs`): sent
   * behind them on this connection, as WAIT must be. Writes answered in the same turn share one WAIT, and
   * Redis holds the connection's later calls until it answers, so `timeoutMs` stays below the command timeout.
   */
  replicated(replicas: number, timeoutMs: number): Promise<number> {
    const shared = this.batchWait;
    if (shared && shared.replicas === replicas && shared.timeoutMs === timeoutMs) return shared.answer;
    const answer = this.call(['WAIT', replicas, timeoutMs]) as Promise<number>;
    if (this.ready) this.batchWait = { replicas, timeoutMs, answer };
    return answer;
  }

  /** Lets calls in flight finish, then closes for good. */
  async quit(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    if (this.ready) await new Promise<unknown>((resolve) => this.send({ resolve, reject: resolve, sentAt: performance.now() }, encode(['QUIT'])));
    clearInterval(this.timeoutTimer);
    this.socket?.destroy();
  }

  /** Closes at once, failing any call in flight. */
  disconnect() {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.timeoutTimer);
    this.socket?.destroy();
  }

  private open(onReady?: () => void, onFailure?: (error: Error) => void) {
    const port = Number(this.url.port) || 6379;
    const host = this.url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
    const tls = this.url.protocol === 'rediss:';
    const socket = tls ? connectTls({ host, port, servername: isIP(host) ? undefined : host }) : connect({ host, port, noDelay: true });
    this.socket = socket;
    socket.once(tls ? 'secureConnect' : 'connect', () => {
      this.connected = true;
      this.handshake(() => {
        this.attempt = 0;
        this.ready = true;
        onReady?.();
        onReady = onFailure = undefined;
      });
    });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error: Error) => {
      onFailure?.(error);
      onReady = onFailure = undefined;
    });
    socket.on('close', () => {
      onFailure?.(new Error(CLOSED));
      onReady = onFailure = undefined;
      this.onClose(socket);
    });
  }

  /** AUTH and SELECT from the URL, then a PING whose answer makes the connection ready; a failure drops it. */
  private handshake(onAnswered: () => void) {
    const user = decodeURIComponent(this.url.username);
    const password = decodeURIComponent(this.url.password);
    const db = Number(this.url.pathname.slice(1)) || 0;
    const check = (resolve: () => void = () => {}): Waiter => ({ resolve, reject: () => this.socket?.destroy(), sentAt: performance.now() });
    if (password) this.push(check(), encode(user ? ['AUTH', user, password] : ['AUTH', password]));
    if (db) this.push(check(), encode(['SELECT', db]));
    this.push(check(onAnswered), encode(['PING']));
  }

  /** ASKING, whose OK is not waited for: the command right behind it answers for both. */
  private asking() {
    if (this.ready) this.push({ resolve: () => {}, reject: () => {}, sentAt: performance.now() }, ASKING);
  }

  private send(waiter: Waiter, command: string) {
    if (!this.ready) return waiter.reject(new ConnectionClosedError(false));
    this.push(waiter, command);
  }

  private push(waiter: Waiter, command: string) {
    this.waiters.push(waiter);
    this.unwritten++;
    this.out += command;
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush() {
    this.flushScheduled = false;
    this.batchWait = undefined;
    const out = this.out;
    this.out = '';
    this.unwritten = 0;
    if (out && this.connected) this.socket!.write(out);
  }

  private onData(chunk: Buffer) {
    try {
      this.reader.feed(chunk);
      for (let reply = this.reader.next(); reply !== RespReader.INCOMPLETE; reply = this.reader.next()) this.settle(reply);
    } catch (error) {
      this.failAll(error as Error);
      this.socket?.destroy();
    }
  }

  private settle(reply: unknown) {
    const waiter = this.waiters.shift();
    if (!waiter) return;
    if (!(reply instanceof ReplyError)) return this.resolve(waiter, reply);
    const call = waiter.script;
    if (!call || !reply.message.startsWith('NOSCRIPT')) return waiter.reject(reply);
    if (call.asking) this.asking();
    this.send(
      { resolve: waiter.resolve, reject: waiter.reject, sentAt: performance.now(), decode: waiter.decode },
      encodeScriptCall('EVAL', call.lua, call.keys, call.args),
    );
  }

  /** Resolves a call with its reply, decoded when it has a decoder; a reply the decoder refuses fails the call alone. */
  private resolve(waiter: Waiter, reply: unknown) {
    if (!waiter.decode) return waiter.resolve(reply);
    let value: unknown;
    try {
      value = waiter.decode(reply);
    } catch (error) {
      return waiter.reject(error as Error);
    }
    waiter.resolve(value);
  }

  private onClose(socket: Socket) {
    if (socket !== this.socket) return;
    this.connected = false;
    this.ready = false;
    this.socket = undefined;
    this.out = '';
    this.batchWait = undefined;
    this.reader.reset();
    // The calls written (the queue's head) may have run; those still in `out` (its tail) never left.
    const waiters = this.waiters.drain();
    const written = waiters.length - this.unwritten;
    this.unwritten = 0;
    waiters.forEach((waiter, at) => waiter.reject(new ConnectionClosedError(at < written)));
    if (this.stopped) return;
    this.options.onDrop?.();
    this.reconnectTimer = setTimeout(() => this.open(), reconnectDelay(this.attempt++));
  }

  private failAll(error: Error) {
    this.unwritten = 0;
    for (const waiter of this.waiters.drain()) waiter.reject(error);
  }

  /** A reply overdue by the timeout means the connection is stuck: fail everything and reconnect. */
  private checkTimeout() {
    const oldest = this.waiters.peek();
    if (!oldest || performance.now() - oldest.sentAt < this.commandTimeoutMs) return;
    this.failAll(new Error('Command timed out'));
    this.socket?.destroy();
  }
}
