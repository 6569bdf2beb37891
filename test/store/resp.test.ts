import { describe, expect, it } from 'vitest';
import { encode, encodeScriptCall, ReplyError, RespReader } from '../../src/platform/redis/resp.js';

const STREAM = Buffer.from(
  '+OK\r\n' + ':42\r\n' + '$-1\r\n' + '*-1\r\n' + '$4\r\nhé!\r\n' + '-NOSCRIPT No matching script\r\n' + '*3\r\n$2\r\nok\r\n*2\r\n:1\r\n$0\r\n\r\n$-1\r\n',
);
const EXPECTED = ['OK', 42, null, null, 'hé!', new ReplyError('NOSCRIPT No matching script'), ['ok', [1, ''], null]];

function readAll(reader: RespReader): unknown[] {
  const replies: unknown[] = [];
  for (let reply = reader.next(); reply !== RespReader.INCOMPLETE; reply = reader.next()) replies.push(reply);
  return replies;
}

describe('RespReader', () => {
  it('reads every reply type in one chunk', () => {
    const reader = new RespReader();
    reader.feed(STREAM);
    const replies = readAll(reader);
    expect(replies).toEqual(EXPECTED);
    expect(replies[5]).toBeInstanceOf(ReplyError);
  });

  it('gives the same replies however the bytes are split', () => {
    for (let size = 1; size <= 7; size++) {
      const reader = new RespReader();
      const replies: unknown[] = [];
      for (let i = 0; i < STREAM.length; i += size) {
        reader.feed(STREAM.subarray(i, i + size));
        replies.push(...readAll(reader));
      }
      expect(replies, `chunks of ${size} bytes`).toEqual(EXPECTED);
    }
  });

  it('refuses bytes that are not RESP', () => {
    const reader = new RespReader();
    reader.feed(Buffer.from('HTTP/1.1 200 OK\r\n'));
    expect(() => reader.next()).toThrow(/Protocol error/);
  });
});

describe('encoding', () => {
  it('writes commands as arrays of bulk strings, lengths in bytes', () => {
    expect(encode(['SET', 'k', 'hé', 42])).toBe('*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nhé\r\n$2\r\n42\r\n');
    expect(encodeScriptCall('EVALSHA', 'abc', ['k1', 'k2'], [7, 'x'])).toBe(encode(['EVALSHA', 'abc', 2, 'k1', 'k2', 7, 'x']));
  });
});
