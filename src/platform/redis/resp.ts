/** RESP2, the Redis protocol: commands out as arrays of bulk strings, replies in as values. */
export type Word = string | number;

/** An error reply from Redis (`-ERR ...`), as ioredis would reject with. */
export class ReplyError extends Error {
  override name = 'ReplyError';
}

const INCOMPLETE: unique symbol = Symbol('incomplete');
const EMPTY = Buffer.alloc(0);

/**
 * Reads RESP2 replies from a byte stream, one whole reply at a time, as ioredis returns them: bulk and
 * simple strings as strings, integers as numbers, nil as null, error replies as `ReplyError` values.
 */
export class RespReader {
  static readonly INCOMPLETE = INCOMPLETE;
  private buffer: Buffer = EMPTY;
  private offset = 0;

  feed(chunk: Buffer) {
    this.buffer = this.offset < this.buffer.length ? Buffer.concat([this.buffer.subarray(this.offset), chunk]) : chunk;
    this.offset = 0;
  }

  /** The next whole reply, or `RespReader.INCOMPLETE` until more bytes arrive. */
  next(): unknown {
    const start = this.offset;
    const reply = this.parse();
    if (reply === INCOMPLETE) this.offset = start;
    return reply;
  }

  reset() {
    this.buffer = EMPTY;
    this.offset = 0;
  }

  private parse(): unknown {
    const buffer = this.buffer;
    const lineEnd = buffer.indexOf(13, this.offset);
    if (lineEnd < 0 || lineEnd + 1 >= buffer.length) return INCOMPLETE;
    const type = buffer[this.offset];
    const lineStart = this.offset + 1;
    this.offset = lineEnd + 2;
    switch (type) {
      case 0x2b: // +
        return buffer.toString('latin1', lineStart, lineEnd);
      case 0x2d: // -
        return new ReplyError(buffer.toString('utf8', lineStart, lineEnd));
      case 0x3a: // :
        return Number(buffer.toString('latin1', lineStart, lineEnd));
      case 0x24: // $
        return this.bulk(integerAt(buffer, lineStart, lineEnd));
      case 0x2a: // *
        return this.array(integerAt(buffer, lineStart, lineEnd));
      default:
        throw new Error(`Protocol error: unexpected reply type ${JSON.stringify(String.fromCharCode(type ?? 0))}`);
    }
  }

  private bulk(length: number): string | null | typeof INCOMPLETE {
    if (length < 0) return null;
    if (this.offset + length + 2 > this.buffer.length) return INCOMPLETE;
    const text = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length + 2;
    return text;
  }

  private array(length: number): unknown[] | null | typeof INCOMPLETE {
    if (length < 0) return null;
    const items = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      const item = this.parse();
      if (item === INCOMPLETE) return INCOMPLETE;
      items[i] = item;
    }
    return items;
  }
}

/** The decimal integer of a length line (such as "-1" or "42"), without making a string of it. */
function integerAt(buffer: Buffer, start: number, end: number): number {
  const negative = buffer[start] === 0x2d;
  let value = 0;
  for (let i = negative ? start + 1 : start; i < end; i++) value = value * 10 + buffer[i]! - 0x30;
  return negative ? -value : value;
}

/** One command as RESP: an array of bulk strings. */
export function encode(words: readonly Word[]): string {
  let out = `*${words.length}\r\n`;
  for (const word of words) out += bulk(word);
  return out;
}

/** `EVALSHA <sha>` as RESP, per SHA: the same few scripts are called over and over. */
const EVALSHA_HEADS = new Map<string, string>();

/** EVALSHA sha or EVAL source, then the keys and the arguments, as RESP. */
export function encodeScriptCall(command: 'EVAL' | 'EVALSHA', script: string, keys: readonly string[], args: readonly Word[]): string {
  let head = command === 'EVALSHA' ? EVALSHA_HEADS.get(script) : undefined;
  if (head === undefined) {
    head = bulk(command) + bulk(script);
    if (command === 'EVALSHA') EVALSHA_HEADS.set(script, head);
  }
  let out = `*${3 + keys.length + args.length}\r\n${head}${bulk(keys.length)}`;
  for (let i = 0; i < keys.length; i++) out += bulk(keys[i]!);
  for (let i = 0; i < args.length; i++) out += bulk(args[i]!);
  return out;
}

function bulk(word: Word): string {
  // A number's text is ASCII: as many bytes as characters.
  if (typeof word === 'number') {
    const digits = String(word);
    return `$${digits.length}\r\n${digits}\r\n`;
  }
  return `$${Buffer.byteLength(word)}\r\n${word}\r\n`;
}
