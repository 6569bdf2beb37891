import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '../../src/platform/metrics/metrics.js';
import { startStack } from '../support/stack.js';

const line = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start));

describe('Metrics (prom-client)', () => {
  it('counts requests and histograms their latency per route pattern and status', async () => {
    const metrics = new Metrics();
    metrics.observe('/api/v1/likes/:user_id', 200, 0.7);
    metrics.observe('/api/v1/likes/:user_id', 200, 3);
    metrics.observe('/api/v1/likes/:user_id', 429, 0.2);
    const text = await metrics.render();
    expect(text).toMatch(/^http_requests_total\{route="\/api\/v1\/likes\/:user_id",status="200"\} 2$/m);
    expect(text).toMatch(/^http_requests_total\{route="\/api\/v1\/likes\/:user_id",status="429"\} 1$/m);
    expect(text).toMatch(/^http_request_duration_ms_sum\{route="\/api\/v1\/likes\/:user_id",status="200"\} 3\.7$/m);
    expect(text).toMatch(/^http_request_duration_ms_count\{route="\/api\/v1\/likes\/:user_id",status="200"\} 2$/m);
    expect(line(text, 'http_request_duration_ms_bucket{le="1",route="/api/v1/likes/:user_id",status="200"}')).toMatch(/ 1$/);
    expect(line(text, 'http_request_duration_ms_bucket{le="5",route="/api/v1/likes/:user_id",status="200"}')).toMatch(/ 2$/);
  });

  it('gives concurrent scrapes the same totals', async () => {
    const metrics = new Metrics();
    metrics.observe('/healthz', 200, 1);
    metrics.observe('/healthz', 200, 1);
    const texts = await Promise.all([metrics.render(), metrics.render(), metrics.render()]);
    for (const text of texts) expect(text).toMatch(/^http_requests_total\{route="\/healthz",status="200"\} 2$/m);
  });

  it('reads a registered gauge at every scrape', async () => {
    const metrics = new Metrics();
    let open = 3;
    metrics.gauge('websocket_connections', () => open);
    expect(await metrics.render()).toMatch(/^websocket_connections 3$/m);
    open = 5;
    expect(await metrics.render()).toMatch(/^websocket_connections 5$/m);
  });

  it('includes the default process metrics, event-loop lag among them', async () => {
    const text = await new Metrics().render();
    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(text).toMatch(new RegExp(`^${name} \\d`, 'm'));
    }
  });

  it('keeps each instance to itself (several servers in one process)', async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.observe('/a', 200, 1);
    expect(await b.render()).not.toMatch(/route="\/a"/);
  });
});

describe('GET /metrics of a running server', () => {
  let stack: Awaited<ReturnType<typeof startStack>>;
  beforeAll(async () => {
    stack = await startStack({ METRICS_TOKEN: 'operators-metrics-token' });
  });
  afterAll(() => stack?.stop());

  it('shows the per-route series, the socket and connection gauges and the process metrics', async () => {
    await stack.api.get('/healthz');
    await stack.api.get('/no/such/path');
    const res = await stack.api.get('/metrics', { token: 'operators-metrics-token' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(/^http_request_duration_ms_count\{route="\/healthz",status="200"\} \d+$/m);
    expect(res.text).toMatch(/^http_requests_total\{route="unmatched",status="404"\} \d+$/m);
    expect(res.text).toMatch(/^websocket_connections 0$/m);
    expect(res.text).toMatch(/^http_connections_refused_total \d+$/m);
    expect(res.text).toMatch(/^nodejs_eventloop_delay_p99_ms \d+(\.\d+)?$/m);
    expect(res.text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
  });
});
