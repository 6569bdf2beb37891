/**
 * HTTP loops run in a process of their own, so that their own work neither slows the server under test
 * nor the timing of the other loop (bench/adversarial-browse.ts). Prints one line `RESULT <json>` at the end.
 *
 *   probe <json {url}>: prints READY, then GETs url back to back (2 ms apart) until SIGTERM; the latencies.
 *   browse <json {baseUrl, tokens, queries, seconds, limit}>: one client per token, each paging through the
 *     queries (following next_cursor to the end, then the next query) for `seconds`; pages and latencies.
 */
import { Histogram, summarize } from './histogram.js';

const round = (n: number) => Math.round(n * 1000) / 1000;
const latency = (h: Histogram) => {
  const s = summarize(h);
  return { count: s.count, p50: round(s.p50), p99: round(s.p99), max: round(s.max) };
};
const report = (value: unknown) => process.stdout.write(`RESULT ${JSON.stringify(value)}\n`);

const [mode, raw] = process.argv.slice(2);
const config = JSON.parse(raw ?? '{}');

if (mode === 'probe') {
  const histogram = new Histogram();
  let done = false;
  process.on('SIGTERM', () => (done = true));
  process.stdout.write('READY\n');
  while (!done) {
    const started = performance.now();
    const res = await fetch(config.url as string);
    await res.arrayBuffer();
    histogram.record(performance.now() - started);
    await new Promise((r) => setTimeout(r, 2));
  }
  report(latency(histogram));
  process.exit(0);
}

if (mode === 'browse') {
  const { baseUrl, tokens, queries, seconds, limit } = config as { baseUrl: string; tokens: string[]; queries: string[]; seconds: number; limit: number };
  const http = new Histogram();
  const pages = { count: 0, short: 0, empty: 0 };
  const deadline = performance.now() + seconds * 1000;
  const client = async (token: string, offset: number) => {
    for (let q = offset; performance.now() < deadline; q++) {
      let cursor: string | null = null;
      do {
        const started = performance.now();
        const res = await fetch(`${baseUrl}/api/v1/discovery/browse?${queries[q % queries.length]}${cursor ? `&cursor=${cursor}` : ''}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = (await res.json()) as { items: unknown[]; next_cursor: string | null };
        if (res.status !== 200) throw new Error(`browse answered ${res.status}: ${JSON.stringify(body)}`);
        http.record(performance.now() - started);
        pages.count++;
        cursor = body.next_cursor;
        if (cursor && body.items.length < limit) pages.short++;
        if (cursor && body.items.length === 0) pages.empty++;
      } while (cursor && performance.now() < deadline);
    }
  };
  await Promise.all(tokens.map((token, i) => client(token, i)));
  report({ ...pages, http: latency(http) });
  process.exit(0);
}

console.error(`unknown mode ${mode}`);
process.exit(2);
