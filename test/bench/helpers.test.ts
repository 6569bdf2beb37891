import { describe, expect, it } from 'vitest';
import { LoopbackAddresses } from '../../bench/lib/loopback.js';
import { parseMetrics, slopePerMinute } from '../../bench/lib/monitor.js';
import { agentProfile, prng, zipf } from '../../bench/lib/profiles.js';
import { Recorder } from '../../bench/lib/recorder.js';
import { failureSummary } from '../../bench/lib/report.js';
import { distributionPoints } from '../../bench/lib/svg-chart.js';

describe('bench helpers', () => {
  it('hands out distinct loopback addresses, never 127.0.0.1 nor .0/.255', () => {
    const addresses = new LoopbackAddresses(true, 0);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const address = addresses.next()!;
      expect(address).toMatch(/^127\.\d+\.\d+\.\d+$/);
      expect(address).not.toBe('127.0.0.1');
      expect(address).not.toMatch(/\.(0|255)$/);
      seen.add(address);
    }
    expect(seen.size).toBe(2000);
    expect(new LoopbackAddresses(false).next()).toBeUndefined();
  });

  it('reads the server gauges and per-route totals from /metrics text', () => {
    const metrics = parseMetrics(
      [
        '# TYPE process_resident_memory_bytes gauge',
        'process_resident_memory_bytes 123456',
        'nodejs_eventloop_delay_p99_ms 1.5',
        'http_request_duration_ms_sum{route="/api/v1/likes/:user_id",status="200"} 42.5',
        'http_request_duration_ms_count{route="/api/v1/likes/:user_id",status="200"} 17',
        'http_request_duration_ms_bucket{route="/api/v1/likes/:user_id",status="200",le="1"} 3',
      ].join('\n'),
    );
    expect(metrics.rssBytes).toBe(123456);
    expect(metrics.eventLoopDelayP99Ms).toBe(1.5);
    expect(metrics.routes.get('/api/v1/likes/:user_id 200')).toEqual({ count: 17, sumMs: 42.5 });
  });

  it('builds deterministic, valid registration bodies with Zipf-drawn interests', () => {
    expect(agentProfile('r', 7)).toEqual(agentProfile('r', 7));
    const profile = agentProfile('r', 8);
    expect(profile.email).toBe('bench-r-8@example.com');
    expect(profile.password).toMatch(/^(?=.*[A-Z])(?=.*\d)(?=.*[^\w\s]).{10,}$/);
    expect(profile.interests.split(', ').length).toBeGreaterThanOrEqual(2);
    const draw = zipf(100);
    const random = prng(1);
    const counts = new Array(100).fill(0);
    for (let i = 0; i < 20_000; i++) counts[draw(random)]++;
    expect(counts[0]).toBeGreaterThan(counts[9] * 5);
  });

  it('summarises failures by outcome and counts frames as successes', () => {
    expect(failureSummary({ 200: 10, ok: 3 })).toBe('0');
    expect(failureSummary({ 200: 10, 429: 2, 'net:ECONNRESET': 1 })).toBe('429×2 net:ECONNRESET×1');
    const recorder = new Recorder();
    recorder.record('x', 'ok', 1);
    recorder.record('x', 500, 1);
    recorder.fail('x', 'missing');
    expect(recorder.failures()).toBe(2);
  });

  it('fits a memory slope per minute', () => {
    const samples = Array.from({ length: 10 }, (_, i) => ({ t: i, rssBytes: 1000 + 2 * i }));
    expect(slopePerMinute(samples, (s) => s.rssBytes)).toBeCloseTo(120, 6);
    expect(slopePerMinute(samples.slice(0, 3), (s) => s.rssBytes)).toBeUndefined();
  });

  it('turns latency buckets into percentage points for the distribution chart', () => {
    const points = distributionPoints([
      [1, 50],
      [10, 50],
    ]);
    expect(points.reduce((n, [, y]) => n + y, 0)).toBeCloseTo(100, 6);
    expect(distributionPoints([])).toEqual([]);
  });
});
