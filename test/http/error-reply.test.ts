import { App } from 'uWebSockets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, errors } from '../../src/platform/core/errors.js';
import { errorHeaders, errorReply, statusLine, toAppError, writeErrorAndClose } from '../../src/platform/http/error-reply.js';
import { createLogger } from '../../src/platform/logger.js';
import { listenOnFreePort } from '../support/uws-app.js';

const logger = createLogger('silent');

describe('error replies', () => {
  it('turns retry and allow hints into Retry-After and Allow headers', () => {
    expect(errorHeaders(errors.rateLimited(7))).toEqual({ 'Retry-After': '7' });
    expect(errorHeaders(errors.unavailable())).toEqual({ 'Retry-After': '2' });
    expect(errorHeaders(errors.storageFull())).toEqual({ 'Retry-After': '30' });
    expect(errorHeaders(errors.methodNotAllowed(['GET', 'POST']))).toEqual({ Allow: 'GET, POST' });
    expect(errorHeaders(errors.notFound())).toBeUndefined();
  });

  it('keeps the envelope: code, message, details ([] when no field is at fault), and the extra fields', () => {
    expect(errorReply(errors.rateLimited(7, 'swipes'))).toEqual({
      status: 429,
      json: { error: { code: 'rate_limited', message: 'Too many swipes; wait 7 seconds and try again.', details: [], retry_after_seconds: 7 } },
      headers: { 'Retry-After': '7' },
    });
    const invalid = errorReply(errors.invalidField('age', 'must be a number'));
    expect(invalid.status).toBe(400);
    expect((invalid as { json: unknown }).json).toEqual({
      error: { code: 'validation_failed', message: 'Invalid request: age must be a number.', details: [{ field: 'age', message: 'must be a number' }] },
    });
    // one wording for every validation_failed, however many fields: the first three, then a count
    const many = errors.validation(['a', 'b', 'c', 'd'].map((field) => ({ field, message: 'is required' })));
    expect(many.message).toBe('Invalid request: a is required; b is required; c is required; and 1 more (see details).');
  });

  it('maps what is thrown to the catalogue: store down 503, store full 507, anything else 500', () => {
    const own = errors.notFound('match');
    expect(toAppError(own, logger, {})).toBe(own);
    const down = Object.assign(new Error('Connection is closed.'), {});
    expect(toAppError(down, logger, {}).code).toBe('unavailable');
    // A Redis Cluster failover that outlasted REDIS_FAILOVER_MS: Redis unreachable, not a bug.
    for (const failover of [
      'CLUSTERDOWN The cluster is down',
      'TRYAGAIN Multiple keys request during rehashing of slot',
      'Too many Cluster redirections. Last error: ReplyError: MOVED 3999 127.0.0.1:7001',
      'Connection is closed (the call was sent and may have run, so it is not sent again).',
    ]) {
      expect(toAppError(new Error(failover), logger, {}).code, failover).toBe('unavailable');
    }
    expect(toAppError(new Error("OOM command not allowed when used memory > 'maxmemory'."), logger, {}).code).toBe('storage_full');
    expect(toAppError(new TypeError('oops'), logger, {}).code).toBe('internal');
    expect(toAppError('a string', logger, {})).toBeInstanceOf(AppError);
  });

  it('names the status lines uWS writes', () => {
    expect(statusLine(429)).toBe('429 Too Many Requests');
    expect(statusLine(507)).toBe('507 Insufficient Storage');
    expect(statusLine(418)).toBe('418');
  });
});

describe('writeErrorAndClose on a real uWS response', () => {
  let server: Awaited<ReturnType<typeof listenOnFreePort>>;
  beforeAll(async () => {
    const app = App();
    app.get('/refuse', (res) => writeErrorAndClose(res, errors.rateLimited(5, 'sockets')));
    app.get('/later', (res) => {
      res.onAborted(() => {});
      setTimeout(() => writeErrorAndClose(res, errors.methodNotAllowed(['GET'])), 10);
    });
    server = await listenOnFreePort(app);
  });
  afterAll(() => server?.close());

  it('writes the status, the hint headers and the JSON envelope, then closes the connection', async () => {
    const res = await fetch(`${server.url}/refuse`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({
      error: { code: 'rate_limited', message: 'Too many sockets; wait 5 seconds and try again.', details: [], retry_after_seconds: 5 },
    });
  });

  it('corks its own writes, so it can answer after an await', async () => {
    const res = await fetch(`${server.url}/later`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect((await res.json()).error.code).toBe('method_not_allowed');
  });
});
