import type { LoadRequest } from '../lib/http-load.js';
import { bearer, loadPhase, sleep } from '../lib/phase.js';
import type { BenchAgent } from '../lib/population.js';
import { INTERESTS } from '../lib/profiles.js';
import { emptyResult, type BenchContext, type Scenario } from '../lib/types.js';

const FEED = '/api/v1/discovery/feed';
const BROWSE = '/api/v1/discovery/browse';

/** Browse queries the clients cycle through: each filter alone and a few combined. */
const BROWSE_QUERIES = [
  'gender=woman,nonbinary',
  'min_age=25&max_age=40',
  `interests=${encodeURIComponent(INTERESTS[0]!)}`,
  `interests=${encodeURIComponent(`${INTERESTS[1]},${INTERESTS[2]}`)}&interests_mode=any`,
  `interests=${encodeURIComponent(`${INTERESTS[0]},${INTERESTS[3]}`)}&interests_mode=all`,
  'city=lisbon',
  'state=texas&gender=man',
  'age=30',
  `min_age=30&max_age=50&gender=woman&interests=${encodeURIComponent(INTERESTS[4]!)}`,
  'limit=50',
];

/**
 * Discovery reads: many agents reading their ranked feed (first page, 20 entries), then browsing with
 * filters, each from its own keep-alive connection.
 */
export const discoveryScenario: Scenario = {
  name: 'discovery',
  title: 'Discovery reads (feed and browse)',
  summary: 'GET /discovery/feed, then GET /discovery/browse with rotating filters, from many agents',
  async run(ctx) {
    const result = emptyResult(this);
    if (!ctx.hasRoute('GET', FEED)) return { ...result, skipped: `${FEED} is not served by the target` };
    const agents = await ctx.population.share(ctx.options.agents, 'discovery reads');
    const ready = await waitForFeeds(ctx, agents);
    result.figures.feeds_ready_in_sample = `${ready.ready}/${ready.sampled} after ${(ready.ms / 1000).toFixed(1)}s`;
    result.figures.feed_entries_first_page_mean = ready.meanEntries;
    result.figures.population = agents.length;

    const feedRequests = agents.map((agent): LoadRequest => ({ method: 'GET', path: `${FEED}?limit=20`, headers: bearer(agent.token), tag: 'GET feed' }));
    const { phase: feed } = await loadPhase(ctx, {
      name: 'feed',
      description: `GET ${FEED}?limit=20 by ${agents.length} agents, first page each time`,
      label: 'discovery: feed',
      connections: ctx.options.connections,
      client: (i) => {
        const request = feedRequests[i % feedRequests.length]!;
        return { localAddress: ctx.addresses.next(), next: () => request };
      },
    });
    result.phases.push(feed);

    if (!ctx.hasRoute('GET', BROWSE)) {
      result.notes.push(`${BROWSE} is not served by the target: browse skipped`);
      return result;
    }
    const { phase: browse } = await loadPhase(ctx, {
      name: 'browse',
      description: `GET ${BROWSE} cycling through ${BROWSE_QUERIES.length} filter combinations (each alone and combined, AND)`,
      label: 'discovery: browse',
      connections: ctx.options.connections,
      client: (i) => {
        const agent = agents[i % agents.length]!;
        const requests = BROWSE_QUERIES.map((q): LoadRequest => ({ method: 'GET', path: `${BROWSE}?${q}`, headers: bearer(agent.token), tag: 'GET browse' }));
        let k = i;
        return { localAddress: ctx.addresses.next(), next: () => requests[k++ % requests.length]! };
      },
    });
    result.phases.push(browse);
    return result;
  },
};

/** Waits (at most 15 s) until a sample of the agents have a non-empty feed: ranking runs in the worker. */
export async function waitForFeeds(ctx: BenchContext, agents: BenchAgent[]) {
  const sample = agents.filter((_, i) => i % Math.max(1, Math.floor(agents.length / 10)) === 0).slice(0, 10);
  const started = performance.now();
  let ready = 0;
  let entries = 0;
  while (performance.now() - started < 15_000) {
    const pages = await Promise.all(sample.map((agent) => ctx.api.get(`${FEED}?limit=20`, { token: agent.token })));
    ready = pages.filter((p) => p.status === 200 && Array.isArray(p.body?.items) && p.body.items.length > 0).length;
    entries = pages.reduce((n, p) => n + (Array.isArray(p.body?.items) ? p.body.items.length : 0), 0);
    if (ready === sample.length) break;
    await sleep(250);
  }
  if (ready < sample.length) ctx.progress.info(`only ${ready}/${sample.length} sampled feeds are non-empty after 15 s; measuring anyway`);
  return { ready, sampled: sample.length, ms: performance.now() - started, meanEntries: sample.length ? entries / sample.length : 0 };
}
