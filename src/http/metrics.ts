import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const BUCKETS_MS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500];

type Series = { observe: (ms: number) => void; inc: () => void };

/**
 * The process's Prometheus metrics (prom-client, a registry of its own): Node's default process metrics
 * (memory, CPU, event-loop lag, GC, handles), request counts and latency histograms per route pattern and
 * status, and the gauges other parts register (open WebSockets, refused connections, ...).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'status'>;
  private readonly duration: Histogram<'route' | 'status'>;
  /** Route pattern → status → its label children: looked up without building a label key per request. */
  private readonly series = new Map<string, Map<number, Series>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route pattern and status.',
      labelNames: ['route', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_ms',
      help: 'Request latency in ms, from the request arriving to the reply being written.',
      labelNames: ['route', 'status'],
      buckets: BUCKETS_MS,
      registers: [this.registry],
    });
  }

  observe(route: string, status: number, ms: number) {
    let byStatus = this.series.get(route);
    if (!byStatus) this.series.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      const labels = { route, status: String(status) };
      const histogram = this.duration.labels(labels);
      const counter = this.requests.labels(labels);
      series = { observe: (value) => histogram.observe(value), inc: () => counter.inc() };
      byStatus.set(status, series);
    }
    series.inc();
    series.observe(ms);
  }

  /** A gauge read when metrics are scraped. */
  gauge(name: string, read: () => number, help = name.replaceAll('_', ' ')) {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every metric. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
