/**
 * A minimal WebSocket client for holding thousands of receive-only sockets in one process: a raw TCP
 * socket, the HTTP/1.1 Upgrade written by hand, server frames read by FrameReader, pings answered with
 * masked pongs, a close frame answered and the connection ended. It sends nothing else but what the
 * caller asks (`sendText`), and does not negotiate extensions (no compression).
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { FrameReader, maskedFrame, OPCODE } from './frame-reader.js';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const HEADER_END = Buffer.from('\r\n\r\n');
/** What every socket of the process reads into: one read is handled whole before the next (one thread). */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

export type LeanSocketOptions = {
  localAddress?: string;
  timeoutMs?: number;
  /** Called for every data message; `data` is only valid during the call. */
  onMessage: (data: Buffer, socket: LeanWebSocket) => void;
  /** Called once when the connection ends after it opened: the close code (1006 when none came). */
  onClose?: (code: number) => void;
};

export class LeanWebSocket {
  open = true;
  private closeCode = 1006;

  private constructor(
    private readonly socket: Socket,
    private readonly options: LeanSocketOptions,
  ) {
    socket.on('error', () => {});
    socket.once('close', () => {
      this.open = false;
      options.onClose?.(this.closeCode);
    });
  }

  /** Opens a socket to `url` (ws://host:port/path?query); rejects if the server does not answer 101 with the right accept key. */
  static connect(url: string, options: LeanSocketOptions): Promise<LeanWebSocket> {
    const target = new URL(url);
    if (target.protocol !== 'ws:') return Promise.reject(new Error(`only ws:// URLs are supported, not ${target.protocol}`));
    const key = randomBytes(16).toString('base64');
    const accept = createHash('sha1')
      .update(key + GUID)
      .digest('base64');
    const request =
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    return new Promise((resolve, reject) => {
      let lean: LeanWebSocket | undefined;
      let head = Buffer.alloc(0);
      const fail = (error: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      const onHead = (bytes: Buffer) => {
        head = Buffer.concat([head, bytes]);
        const end = head.indexOf(HEADER_END);
        if (end < 0) {
          if (head.length > 16_384) fail(new Error(`the upgrade response of ${url} has no end of headers`));
          return;
        }
        const lines = head.toString('latin1', 0, end).split('\r\n');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1];
        if (status !== '101') return fail(new Error(`WebSocket upgrade of ${url} answered ${status ?? lines[0]}`));
        const acceptLine = lines.find((line) => /^sec-websocket-accept:/i.test(line));
        if (acceptLine?.slice(acceptLine.indexOf(':') + 1).trim() !== accept)
          return fail(new Error(`WebSocket upgrade of ${url} answered a wrong Sec-WebSocket-Accept`));
        clearTimeout(timer);
        socket.off('error', fail);
        socket.off('close', onEarlyClose);
        lean = new LeanWebSocket(socket, options);
        resolve(lean);
        const rest = head.subarray(end + HEADER_END.length);
        if (rest.length > 0) lean.receive(rest);
      };
      // Reads land in the shared buffer and are handled at once, without a stream or a buffer per read.
      const socket = connect({
        host: target.hostname,
        port: Number(target.port || 80),
        localAddress: options.localAddress,
        onread: {
          buffer: READ_BUFFER,
          callback: (length) => {
            const bytes = READ_BUFFER.subarray(0, length);
            if (lean) lean.receive(bytes);
            else onHead(bytes);
            return true;
          },
        },
      });
      socket.setNoDelay(true);
      const timer = setTimeout(() => fail(new Error(`no WebSocket upgrade from ${url} within ${options.timeoutMs ?? 10_000} ms`)), options.timeoutMs ?? 10_000);
      const onEarlyClose = () => fail(new Error(`the connection to ${url} closed before the upgrade`));
      socket.once('error', fail);
      socket.once('close', onEarlyClose);
      socket.write(request);
    });
  }

  private readonly reader = new FrameReader({
    message: (data) => this.options.onMessage(data, this),
    ping: (payload) => this.write(OPCODE.pong, payload),
    close: (code) => {
      this.closeCode = code;
      this.write(OPCODE.close, code === 1005 ? Buffer.alloc(0) : codePayload(code));
      this.socket.end();
    },
  });

  private receive(bytes: Buffer) {
    try {
      this.reader.feed(bytes);
    } catch {
      this.closeCode = 1002;
      this.socket.destroy();
    }
  }

  /** Sends a text message (masked, as a client must). */
  sendText(text: string) {
    this.write(OPCODE.text, Buffer.from(text));
  }

  /** Ends the connection at once, without a close handshake. */
  terminate() {
    this.socket.destroy();
  }

  private write(opcode: number, payload: Buffer) {
    if (this.socket.writable) this.socket.write(maskedFrame(opcode, payload, randomBytes(4)));
  }
}

function codePayload(code: number): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code);
  return payload;
}
