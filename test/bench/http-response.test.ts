import { describe, expect, it } from 'vitest';
import { parseResponse } from '../../bench/lib/http-load.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('bench load generator: response parsing', () => {
  it('parses a Content-Length response and leaves the rest', () => {
    const parsed = parseResponse(bytes('HTTP/1.1 201 Created\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhelloHTTP/1.1'))!;
    expect(parsed.status).toBe(201);
    expect(parsed.body.toString()).toBe('hello');
    expect(parsed.rest.toString()).toBe('HTTP/1.1');
    expect(parsed.close).toBe(false);
  });

  it('waits for the whole head and the whole body', () => {
    expect(parseResponse(bytes('HTTP/1.1 200 OK\r\nContent-Len'))).toBeNull();
    expect(parseResponse(bytes('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n12345'))).toBeNull();
  });

  it('parses chunked bodies, complete or not', () => {
    const full = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n';
    expect(parseResponse(bytes(full))!.body.toString()).toBe('abcde');
    expect(parseResponse(bytes(full.slice(0, -2)))).toBeNull();
    expect(parseResponse(bytes(full.slice(0, 60)))).toBeNull();
  });

  it('knows responses without a body and Connection: close', () => {
    const parsed = parseResponse(bytes('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n'))!;
    expect(parsed.status).toBe(204);
    expect(parsed.body.length).toBe(0);
    expect(parsed.close).toBe(true);
  });
});
