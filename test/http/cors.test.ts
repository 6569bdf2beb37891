import { App } from 'uWebSockets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPreflight, writeCorsHeaders } from '../../src/platform/http/cors.js';
import { listenOnFreePort } from '../support/uws-app.js';

let server: Awaited<ReturnType<typeof listenOnFreePort>>;
beforeAll(async () => {
  const app = App();
  app.get('/plain', (res) => {
    res.cork(() => {
      res.writeStatus('200 OK');
      writeCorsHeaders(res);
      res.end('ok');
    });
  });
  app.options('/known', (res) => answerPreflight(res, true));
  app.options('/unknown', (res) => answerPreflight(res, false));
  server = await listenOnFreePort(app);
});
afterAll(() => server?.close());

describe('CORS', () => {
  it('lets any origin read a response and the headers a client acts on', async () => {
    const res = await fetch(`${server.url}/plain`, { headers: { Origin: 'https://example.org' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After, X-Request-Id, Allow, WWW-Authenticate');
  });

  it('answers a preflight for an existing path with 204, the methods and headers allowed, and a max age', async () => {
    const res = await fetch(`${server.url}/known`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, PUT, DELETE, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Idempotency-Key, X-Request-Id');
    expect(res.headers.get('access-control-max-age')).toBe('600');
  });

  it('answers a preflight for a path that does not exist with 404', async () => {
    const res = await fetch(`${server.url}/unknown`, { method: 'OPTIONS' });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
