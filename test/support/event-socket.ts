import WebSocket from 'ws';
import { ContractViolation } from './api-contract.js';
import { isFabricated } from './fabricated-frames.js';
import { isDocumentedSocket, socketContract } from './socket-contract.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload depends on the event type; tests read the fields they wait for
export type Frame = { id: string; type: string; at: string; data: any; synthetic?: boolean };

/**
 * A `ws` client that records every frame and lets a test wait for the ones it expects. The waits' bounds are
 * as generous as `eventually`'s: a busy machine must not fail a test that waits for a frame.
 *
 * On a WebSocket of the OpenAPI document, a refused upgrade must be an answer the document gives, and every
 * frame one of the frames it names: the first frame that is not makes every later wait, and `close`, throw.
 */
export class EventSocket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];
  private violation: ContractViolation | undefined;

  private constructor(
    readonly ws: WebSocket,
    path: string,
  ) {
    const documented = isDocumentedSocket(path);
    ws.on('message', (data) => {
      const text = (data as Buffer).toString(); // a Buffer with ws's default binaryType
      const frame = JSON.parse(text) as Frame;
      this.frames.push(frame);
      const problems = documented && !isFabricated(text) ? socketContract.frameProblems(path, frame) : [];
      if (problems.length > 0)
        this.violation ??= new ContractViolation(`GET ${path} sent the frame ${text.slice(0, 300)}${text.length > 300 ? '…' : ''}`, problems);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Opens `path` on `baseUrl` (http:// becomes ws://); rejects with the refusal's status and body. */
  static open(
    baseUrl: string,
    path: string,
    options: { token?: string; headers?: Record<string, string>; /** source address to connect from */ localAddress?: string } = {},
  ): Promise<EventSocket> {
    const headers = { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + path, { headers, localAddress: options.localAddress });
    const socket = new EventSocket(ws, path);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const body: unknown = JSON.parse(text || 'null');
          const problems = isDocumentedSocket(path)
            ? socketContract.problems('GET', path, { status, contentType: res.headers['content-type'], body, text })
            : [];
          if (problems.length > 0) return reject(new ContractViolation(`GET ${path} answered ${status}`, problems));
          reject(Object.assign(new Error(`upgrade refused: ${status}`), { status, headers: res.headers, body }));
        });
      });
      ws.once('error', reject);
    });
  }

  /** Waits until `count` frames have arrived (all of them, in order). */
  async waitFor(count: number, timeoutMs = 10_000): Promise<Frame[]> {
    const deadline = Date.now() + timeoutMs;
    this.throwViolation();
    while (this.frames.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} frames, got ${this.frames.length}: ${JSON.stringify(this.frames.map((f) => f.type))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.throwViolation();
    }
    return this.frames.slice(0, count);
  }

  /** Waits for the first frame matching `predicate`. */
  async waitForFrame(predicate: (frame: Frame) => boolean, timeoutMs = 10_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found) return found;
      await this.waitFor(this.frames.length + 1, Math.max(1, deadline - Date.now()));
    }
  }

  /**
   * Waits for the first frame matching `marker` and returns the frames that came before it. One socket
   * gets its frames in order, so a test proves that something did not arrive by sending a marker after it
   * and expecting what came before the marker, rather than by waiting a while.
   */
  async framesBefore(marker: (frame: Frame) => boolean, timeoutMs = 10_000): Promise<Frame[]> {
    const found = await this.waitForFrame(marker, timeoutMs);
    return this.frames.slice(0, this.frames.indexOf(found));
  }

  close() {
    this.ws.close();
    this.throwViolation();
    return this.closed;
  }

  private throwViolation() {
    if (this.violation) throw this.violation;
  }
}
