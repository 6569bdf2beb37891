/**
 * Reads the WebSocket frames a server sends (RFC 6455: unmasked, 7-, 16- or 64-bit lengths) from the
 * chunks of a TCP stream, with as little work per frame as possible: a frame that lies whole in a chunk
 * is handed on as a view of it; only a frame cut across chunks is copied. Nothing of a chunk is kept
 * as a view after `feed` returns, so the caller may read the next chunk into the same memory.
 */
export type FrameHandlers = {
  /** A whole data message (text or binary; fragments joined). `data` is only valid during the call. */
  message: (data: Buffer) => void;
  ping: (payload: Buffer) => void;
  /** The server's close frame: its status code (1005 when it carried none). */
  close: (code: number) => void;
};

export const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export class FrameReader {
  /** The start of a frame that the previous chunks did not complete. */
  private rest: Buffer | undefined;
  /** Fragments of a message whose final frame has not come yet. */
  private fragments: Buffer[] = [];
  private closed = false;

  constructor(private readonly handlers: FrameHandlers) {}

  feed(chunk: Buffer) {
    if (this.closed) return;
    let buffer = chunk;
    if (this.rest) {
      buffer = Buffer.concat([this.rest, chunk]);
      this.rest = undefined;
    }
    let at = 0;
    while (!this.closed) {
      const available = buffer.length - at;
      if (available < 2) break;
      const first = buffer[at]!;
      const second = buffer[at + 1]!;
      if (second & 0x80) throw new Error('the server sent a masked frame');
      let length = second & 0x7f;
      let header = 2;
      if (length === 126) {
        if (available < 4) break;
        length = buffer.readUInt16BE(at + 2);
        header = 4;
      } else if (length === 127) {
        if (available < 10) break;
        length = Number(buffer.readBigUInt64BE(at + 2));
        header = 10;
      }
      if (available < header + length) break;
      const payload = buffer.subarray(at + header, at + header + length);
      at += header + length;
      this.frame(first & 0x0f, (first & 0x80) !== 0, payload);
    }
    // A copy: the caller may reuse the chunk's memory for its next read.
    if (at < buffer.length && !this.closed) this.rest = Buffer.from(buffer.subarray(at));
  }

  private frame(opcode: number, fin: boolean, payload: Buffer) {
    switch (opcode) {
      case OPCODE.text:
      case OPCODE.binary:
        if (fin) this.handlers.message(payload);
        else this.fragments = [Buffer.from(payload)];
        return;
      case OPCODE.continuation:
        this.fragments.push(Buffer.from(payload));
        if (fin) {
          const whole = Buffer.concat(this.fragments);
          this.fragments = [];
          this.handlers.message(whole);
        }
        return;
      case OPCODE.ping:
        this.handlers.ping(payload);
        return;
      case OPCODE.close:
        this.closed = true;
        this.handlers.close(payload.length >= 2 ? payload.readUInt16BE(0) : 1005);
        return;
      default:
        return; // pong or a reserved opcode: nothing to do
    }
  }
}

/** A client frame (RFC 6455: always masked), FIN set. */
export function maskedFrame(opcode: number, payload: Buffer, mask: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + 4 + length);
  frame[0] = 0x80 | opcode;
  if (header === 2) frame[1] = 0x80 | length;
  else if (header === 4) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  mask.copy(frame, header, 0, 4);
  for (let i = 0; i < length; i++) frame[header + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}
