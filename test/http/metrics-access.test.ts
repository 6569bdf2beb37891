import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, startTestRedis, type TestApp } from '../support/stack.js';

const TOKEN = 'operators-only-metrics-secret';

let redis: Awaited<ReturnType<typeof startTestRedis>>;
let guarded: TestApp;
let unset: TestApp;
beforeAll(async () => {
  redis = await startTestRedis();
  guarded = await startApp(redis, { METRICS_TOKEN: TOKEN });
  unset = await startApp(redis);
});
afterAll(async () => {
  await guarded?.stop();
  await unset?.stop();
  await redis?.cleanup();
});

describe('GET /metrics is for operators only', () => {
  it('refuses a request without the token, or with another one, and shows no metrics', async () => {
    for (const token of [undefined, 'not-the-metrics-token', `${TOKEN}x`]) {
      const res = await guarded.api.get('/metrics', { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      expect(res.text).not.toMatch(/http_requests_total/);
    }
  });

  it('serves the Prometheus text with the token', async () => {
    await guarded.api.get('/healthz');
    const res = await guarded.api.get('/metrics', { token: TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(/^http_requests_total\{route="\/healthz",status="200"\} \d+$/m);
  });

  it('answers 404 as if absent when no METRICS_TOKEN is configured', async () => {
    const res = await unset.api.get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(res.text).not.toMatch(/http_requests_total/);
    const spec = (await unset.api.get('/api/v1/openapi.json')).body;
    expect(spec.paths['/metrics']).toBeUndefined();
  });
});
