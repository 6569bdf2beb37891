import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const BUCKETS_MS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500];

type Series = { observe: (ms: number) => void };

/**
 * The process's Prometheus metrics (prom-client, a registry of its own): Node's default process metrics
 * (memory, CPU, event-loop lag, GC, handles), request counts and latency histograms per route pattern and
 * status, and the gauges other parts register (open WebSockets, refused connections, ...).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly duration: Histogram<'route' | 'status'>;
  /** Route pattern → status → its label children: looked up without building a label key per request. */
  private readonly series = new Map<string, Map<number, Series>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    const duration = (this.duration = new Histogram({
      name: 'http_request_duration_ms',
      help: 'Request latency in ms, from the request arriving to the reply being written.',
      labelNames: ['route', 'status'],
      buckets: BUCKETS_MS,
      registers: [this.registry],
    }));
    // The histogram counts every request already: the counter is filled from it at scrape time, sparing
    // each request a second labelled update.
    new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route pattern and status.',
      labelNames: ['route', 'status'],
      registers: [this.registry],
      async collect() {
        const { values } = await duration.get();
        // Reset and refill in one synchronous step, so concurrent scrapes cannot add up twice.
        this.reset();
        for (const value of values) {
          if (value.metricName === 'http_request_duration_ms_count')
            this.inc({ route: String(value.labels.route), status: String(value.labels.status) }, value.value);
        }
      },
    });
  }

  observe(route: string, status: number, ms: number) {
    let byStatus = this.series.get(route);
    if (!byStatus) this.series.set(route, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(status);
    if (!series) {
      const labels = { route, status: String(status) };
      series = this.duration.labels(labels);
      byStatus.set(status, series);
    }
    series.observe(ms);
  }

  /** A gauge read when metrics are scraped. */
  gauge(name: string, read: () => number | Promise<number>, help = name.replaceAll('_', ' ')) {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** A counter without labels, counted by the caller through the function returned. */
  count(name: string, help: string): () => void {
    const counter = new Counter({ name, help, registers: [this.registry] });
    return () => counter.inc();
  }

  /** A counter with one label, counted by the caller through the function returned. */
  counter(name: string, help: string, label: string): (value: string) => void {
    const counter = new Counter({ name, help, labelNames: [label], registers: [this.registry] });
    return (value) => counter.inc({ [label]: value });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every metric. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
