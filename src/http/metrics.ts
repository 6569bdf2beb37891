const BUCKETS_MS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500];

type Series = { count: number; sumMs: number; buckets: number[] };

/** Request counters and latency histograms per route and status, rendered as Prometheus text. */
export class Metrics {
  /** Route pattern → status → series: keyed so that observing a request builds no string. */
  private readonly series = new Map<string, Map<number, Series>>();
  private readonly gauges = new Map<string, () => number>();

  observe(route: string, status: number, ms: number) {
    let byStatus = this.series.get(route);
    if (!byStatus) {
      byStatus = new Map();
      this.series.set(route, byStatus);
    }
    let s = byStatus.get(status);
    if (!s) {
      s = { count: 0, sumMs: 0, buckets: BUCKETS_MS.map(() => 0) };
      byStatus.set(status, s);
    }
    s.count++;
    s.sumMs += ms;
    for (let i = 0; i < BUCKETS_MS.length; i++) if (ms <= BUCKETS_MS[i]!) s.buckets[i]!++;
  }

  gauge(name: string, read: () => number) {
    this.gauges.set(name, read);
  }

  render(): string {
    const lines = [
      '# HELP http_requests_total HTTP requests by route pattern and status.',
      '# TYPE http_requests_total counter',
    ];
    const histogram = ['# HELP http_request_duration_ms Request latency in ms.', '# TYPE http_request_duration_ms histogram'];
    for (const [route, byStatus] of this.series) {
      for (const [status, s] of byStatus) {
        const labels = `route="${route}",status="${status}"`;
        lines.push(`http_requests_total{${labels}} ${s.count}`);
        BUCKETS_MS.forEach((le, i) => histogram.push(`http_request_duration_ms_bucket{${labels},le="${le}"} ${s.buckets[i]}`));
        histogram.push(`http_request_duration_ms_bucket{${labels},le="+Inf"} ${s.count}`);
        histogram.push(`http_request_duration_ms_sum{${labels}} ${s.sumMs.toFixed(3)}`);
        histogram.push(`http_request_duration_ms_count{${labels}} ${s.count}`);
      }
    }
    lines.push(...histogram);
    const memory = process.memoryUsage();
    lines.push('# TYPE process_resident_memory_bytes gauge', `process_resident_memory_bytes ${memory.rss}`);
    lines.push('# TYPE nodejs_heap_used_bytes gauge', `nodejs_heap_used_bytes ${memory.heapUsed}`);
    for (const [name, read] of this.gauges) lines.push(`# TYPE ${name} gauge`, `${name} ${read()}`);
    return `${lines.join('\n')}\n`;
  }
}
