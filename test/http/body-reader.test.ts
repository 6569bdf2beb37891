import { connect } from 'node:net';
import { App, type HttpRequest, type HttpResponse } from 'uWebSockets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/core/errors.js';
import { BODY_ABORTED, hasBody, readBody, type BodySource } from '../../src/platform/http/body-reader.js';
import { listenOnFreePort } from '../support/uws-app.js';

const LIMIT = 1024;
let server: Awaited<ReturnType<typeof listenOnFreePort>>;
/** What each read ended with, in arrival order. */
const outcomes: Array<{ bytes?: number; error?: unknown }> = [];
let outcomeSeen: () => void = () => {};

function handler(res: HttpResponse, req: HttpRequest) {
  const headers: Record<string, string> = {};
  req.forEach((k, v) => (headers[k] = v));
  const source: BodySource = { headers, aborted: false };
  res.onAborted(() => {
    source.aborted = true;
    source.onAbort?.();
  });
  readBody(res, source, LIMIT).then(
    (body) => {
      outcomes.push({ bytes: body.length });
      outcomeSeen();
      if (!source.aborted) res.cork(() => res.end(`${body.length}:${body.toString('hex').slice(0, 16)}`));
    },
    (error: unknown) => {
      outcomes.push({ error });
      outcomeSeen();
      if (!source.aborted) res.cork(() => res.writeStatus(error instanceof AppError ? `${error.status}` : '500').end('', true));
    },
  );
}

beforeAll(async () => {
  const app = App();
  app.post('/body', handler);
  server = await listenOnFreePort(app);
});
afterAll(() => server?.close());

const nextOutcome = () => new Promise<void>((resolve) => (outcomeSeen = resolve));

describe('reading a request body', () => {
  it('reads a body sent in several packets whole, each chunk copied', async () => {
    const socket = connect(server.port, '127.0.0.1');
    const body = Buffer.alloc(600, 0xab);
    socket.write(`POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`);
    for (let i = 0; i < body.length; i += 100) {
      socket.write(body.subarray(i, i + 100));
      await new Promise((r) => setTimeout(r, 5));
    }
    const answer = await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer.endsWith(`600:${'ab'.repeat(8)}`)).toBe(true);
  });

  it('refuses a declared length over the limit at once with 413, reading nothing', async () => {
    const res = await fetch(`${server.url}/body`, { method: 'POST', body: 'x'.repeat(LIMIT + 1) });
    expect(res.status).toBe(413);
  });

  it('refuses a chunked body once it grows past the limit', async () => {
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(400));
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/body`, { method: 'POST', body: chunks, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('rejects with BODY_ABORTED when the client goes away mid-body', async () => {
    const seen = nextOutcome();
    const socket = connect(server.port, '127.0.0.1');
    // Gone once the head and part of the body are on their way (written to the kernel), not before.
    await new Promise((resolve) => socket.write('POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\nhalf of it', resolve));
    socket.destroy();
    await seen;
    expect(outcomes.at(-1)!.error).toBe(BODY_ABORTED);
  });

  it('knows whether a request announces a body', () => {
    expect(hasBody({ 'content-length': '12' })).toBe(true);
    expect(hasBody({ 'transfer-encoding': 'chunked' })).toBe(true);
    expect(hasBody({ 'content-length': '0' })).toBe(false);
    expect(hasBody({})).toBe(false);
  });
});
