/**
 * Discovery at scale: seeds a large agent pool straight into a private Redis through the service's own
 * store and indexer code (clearly "seeded": no HTTP, no password hashing), with interests drawn from a
 * Zipf distribution, then measures ranking, registration-to-feed, feed and browse reads, and Redis memory.
 *
 *   npx tsx bench/discovery-scale.ts --agents 100000 [--interests 2000] [--sample 200] [--reads 2000]
 *     [--registrations 20] [--jobs 50] [--seed 42] [--json]
 *
 * `runDiscoveryScale(opts)` returns the same figures as a plain object, for the bench runner.
 */
import { AccountReadsRepository } from '../src/features/accounts/account-reads-repository.js';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { BrowseFilters } from '../src/features/discovery/browse-schemas.js';
import { GENDERS } from '../src/features/accounts/account-schemas.js';
import { RankingJobs } from '../src/features/discovery/ranking-jobs.js';
import { createLogger } from '../src/platform/logger.js';
import { DiscoveryIndexer } from '../src/features/discovery/discovery-indexer.js';
import { DiscoveryService } from '../src/features/discovery/discovery-service.js';
import { FeedRanker } from '../src/features/discovery/feed-ranker.js';
import { DiscoveryIndexRepository } from '../src/features/discovery/discovery-index-repository.js';
import { FeedRepository, type FeedPosition } from '../src/features/discovery/feed-repository.js';
import { keys } from '../src/platform/redis/keys.js';
import { ALL_PARTITIONS, indexPartition } from '../src/platform/redis/key-space.js';
import { queueConnections } from '../src/platform/redis/redis.js';
import { Histogram, summarize, type LatencySummary } from './lib/histogram.js';
import { familyFigures, familyTable, measureKeyFamilies, type FamilyFigures } from './lib/key-families.js';
import { JsonClient } from '../src/clients/json-client.js';
import { LoopbackAddresses } from './lib/loopback.js';
import { prng, zipf } from './lib/profiles.js';
import { startPrivateRedis } from './lib/private-redis.js';
import { startBenchApp } from './lib/bench-app.js';

export type DiscoveryScaleOptions = {
  /** Seeded agents. */
  agents: number;
  /** Distinct interests, ranked by popularity (Zipf). */
  interests?: number;
  /** Zipf exponent of interest popularity. */
  zipfExponent?: number;
  /** Agents whose feed is ranked (timed) and then read. */
  sample?: number;
  /** Feed reads and browse reads, each. */
  reads?: number;
  /** Agents registered through the HTTP API to time registration-to-feed. */
  registrations?: number;
  /** Whole ranking jobs (rank and spread) timed, over the first of the ranked sample (at most `sample`). */
  jobs?: number;
  seed?: number;
  log?: (line: string) => void;
};

type Latency = Pick<LatencySummary, 'count' | 'mean' | 'p50' | 'p99' | 'max'>;

export type DiscoveryScaleResult = {
  label: string;
  agents: number;
  interests: number;
  zipf_exponent: number;
  interests_per_agent_mean: number;
  top_interest_holders: number;
  seed_seconds: number;
  /** The bench process's peak resident memory (server, in-process worker, seeding), MB. */
  peak_rss_mb: number;
  /** The JS heap in use around the timed jobs, MB: before them and after them (after a collection when run with --expose-gc), and the most seen after any one job. */
  jobs_heap_mb: { before: number; most_during: number; after: number };
  /** `redis_ms_mean`: Redis's CPU time per ranking (INFO cpu), summed over its many bounded calls. */
  rank_one_feed_ms: Latency & { sharers_mean: number; redis_ms_mean: number };
  /** `candidates_mean`: how many sharers a ranking considered (bounded, see RANK_CANDIDATES). */
  rank_and_spread_ms: Latency & { feeds_changed_mean: number; candidates_mean: number; redis_ms_mean: number };
  /** One job when every feed of the pool counts as ranked (the spread then visits every sharer's feed). */
  rank_and_spread_fully_ranked_pool_ms: Latency & { feeds_changed_mean: number; redis_ms_mean: number };
  registration_http_ms: Latency;
  registration_to_ranked_feed_ms: Latency;
  registration_to_spread_done_ms: Latency;
  /** `redis_ms_mean`: Redis's own time in the read script, per read. */
  feed_read_server_ms: Latency & { redis_ms_mean: number };
  feed_read_http_ms: Latency;
  /** Share of the HTTP feed reads the server itself timed (auth + handler) at or under 1 and 2 ms (GET /metrics). */
  feed_read_server_metrics: { le_1ms: number; le_2ms: number; le_5ms: number };
  feed_rest_page_server_ms: Latency;
  browse_read_server_ms: Latency & { per_query_p99: Record<string, number> };
  browse_read_http_ms: Latency;
  browse_read_server_metrics: { le_1ms: number; le_2ms: number; le_5ms: number };
  redis_memory: {
    baseline_bytes: number;
    seeded_bytes_per_agent: number;
    ranked_feed_bytes_mean: number;
    projected_bytes_per_agent_with_feed: number;
    /** Where the seeded bytes go, by kind of key (MEMORY USAGE, OBJECT ENCODING), right after seeding. */
    families_seeded: Record<string, FamilyFigures>;
    /** The same once every feed is marked ranked (each agent then also has a ranked-at and a floor entry). */
    families_every_feed_marked_ranked: Record<string, FamilyFigures>;
  };
};

const BROWSE_QUERIES: Array<[string, Partial<BrowseFilters>]> = [
  ['gender=woman', { gender: ['woman'] }],
  ['gender=woman,nonbinary', { gender: ['woman', 'nonbinary'] }],
  ['min_age=25&max_age=35', { min_age: 25, max_age: 35 }],
  ['age=30', { age: 30 }],
  ['interests=<top>', { interests: ['interest-0001'] }],
  ['interests=<rank 50>,<rank 400>', { interests: ['interest-0050', 'interest-0400'] }],
  ['interests=<top>,<rank 2>&interests_mode=all', { interests: ['interest-0001', 'interest-0002'], interests_mode: 'all' }],
  ['city=<top>', { city: 'city-01' }],
  ['state=<rank 10>', { state: 'state-10' }],
  ['age=30&gender=man&city=<top>', { age: 30, gender: ['man'], city: 'city-01' }],
  ['min_age=30&max_age=50&gender=woman&interests=<rank 5>', { min_age: 30, max_age: 50, gender: ['woman'], interests: ['interest-0005'] }],
  ['interests=<rank 1900>&state=<rank 3>', { interests: ['interest-1900'], state: 'state-03' }],
];

export async function runDiscoveryScale(opts: DiscoveryScaleOptions): Promise<DiscoveryScaleResult> {
  const {
    agents,
    interests: interestCount = 2_000,
    zipfExponent = 1,
    sample = 200,
    reads = 2_000,
    registrations = 20,
    jobs: jobCount = 50,
    seed = 42,
    log = () => {},
  } = opts;
  const random = prng(seed);
  const interestOf = zipfRanks(interestCount, zipfExponent, random);
  const cityOf = zipfRanks(50, 1, random);
  const stateOf = zipfRanks(20, 1, random);
  const interestName = (rank: number) => `interest-${String(rank).padStart(4, '0')}`;

  const redis = await startPrivateRedis('discovery-scale');
  // The server answers HTTP with no worker of its own; this process runs the one worker (like the
  // embedded default), told not to rank the seeded pool wholesale on start.
  const logger = createLogger('warn');
  const app = await startBenchApp(redis.topology, {}, logger);
  const probe = new Redis(redis.url, { lazyConnect: true });
  await probe.connect();
  const index = new DiscoveryIndexRepository(app.redis, app.scripts, new AccountReadsRepository(app.redis, app.scripts));
  const feeds = new FeedRepository(app.redis, app.scripts);
  const ranker = new FeedRanker(index, feeds);
  const discovery = new DiscoveryService(index, feeds, ranker, app.rankingJobs!.queue);
  const baseUrl = `http://127.0.0.1:${app.port}`;
  let jobs: RankingJobs | undefined;

  try {
    const baseline = await usedMemory(probe);

    // -- seed ------------------------------------------------------------------------------------
    log(`seeding ${agents} agents (store + indexer, no HTTP) ...`);
    const seedStarted = performance.now();
    const noJobs = new DiscoveryIndexer({ schedule: async () => {} }, logger);
    const ids: number[] = [];
    let interestTotal = 0;
    const now = Date.now();
    for (let done = 0; done < agents;) {
      const batch = Math.min(1_000, agents - done);
      const created = await Promise.all(
        Array.from({ length: batch }, async (_, i) => {
          const n = done + i;
          const wanted = 3 + Math.floor(random() * 6);
          const mine = new Set<string>();
          while (mine.size < wanted) mine.add(interestName(interestOf()));
          interestTotal += mine.size;
          const age = 18 + Math.floor(random() * 52);
          const user = await app.users.create(
            {
              pool: 'agent',
              email: `seeded-${n}@bench.example`,
              passwordHash: 'seeded',
              displayName: `Seeded ${n}`,
              birthdate: birthdateForAge(age, random),
              gender: GENDERS[Math.floor(random() * GENDERS.length)]!,
              bio: 'Seeded by bench/discovery-scale.ts.',
              interests: [...mine],
              city: `city-${String(cityOf()).padStart(2, '0')}`,
              state: `state-${String(stateOf()).padStart(2, '0')}`,
              themeId: 1 + Math.floor(random() * 6),
            },
            new Date(now - (agents - n) * 1_000),
          );
          await noJobs.profileSaved(user!);
          return user!.id;
        }),
      );
      ids.push(...created);
      done += batch;
      if (done % 20_000 === 0 || done === agents) log(`  ${done} seeded`);
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const seededBytes = (await usedMemory(probe)) - baseline;
    log('measuring memory by kind of key ...');
    const familiesSeeded = familyFigures(await measureKeyFamilies(probe), agents);
    const topHolders = await interestHolders(probe, interestName(1));

    // -- rank a sample, timed ----------------------------------------------------------------------
    const sampled = pick(ids, sample, random);
    log(`ranking ${sampled.length} feeds (own feed only), one at a time ...`);
    const rankHistogram = new Histogram();
    let cpuBefore = await cpuMs(probe);
    for (const id of sampled) {
      const started = performance.now();
      await ranker.rank('agent', id);
      rankHistogram.record(performance.now() - started);
    }
    const rankRedisMs = ((await cpuMs(probe)) - cpuBefore) / Math.max(1, sampled.length);
    const sharerSample = sampled.slice(0, 20);
    let sharers = 0;
    for (const id of sharerSample) sharers += await index.indexed('agent', id).then((p) => (p ? unionSize(probe, p.interests) : 0));
    const spreadSample = sampled.slice(0, Math.min(jobCount, sampled.length));
    const heapMb = (collect: boolean) => {
      if (collect) (globalThis as { gc?: () => void }).gc?.();
      return Math.round(process.memoryUsage().heapUsed / 1_048_576);
    };
    const jobsHeap = { before: heapMb(true), most_during: 0, after: 0 };
    log(`rank + spread (the whole job) for ${spreadSample.length} of them ...`);
    const refreshHistogram = new Histogram();
    let changed = 0;
    let considered = 0;
    cpuBefore = await cpuMs(probe);
    for (const id of spreadSample) {
      const started = performance.now();
      const outcome = await ranker.refresh('agent', id);
      refreshHistogram.record(performance.now() - started);
      jobsHeap.most_during = Math.max(jobsHeap.most_during, heapMb(false));
      changed += outcome?.feedsChanged ?? 0;
      considered += outcome?.candidates ?? 0;
    }
    const refreshRedisMs = ((await cpuMs(probe)) - cpuBefore) / Math.max(1, spreadSample.length);
    jobsHeap.after = heapMb(true);
    const feedBytes = await Promise.all(sampled.map((id) => probe.memory('USAGE', keys.feed('agent', id)).then((b) => Number(b ?? 0))));
    const feedBytesMean = feedBytes.reduce((a, b) => a + b, 0) / Math.max(1, feedBytes.length);

    // -- registration to feed, through HTTP and the worker -------------------------------------------
    jobs = await RankingJobs.start({ connections: queueConnections(redis.topology), ranker, logger, worker: { reconcile: false } });
    log(`registering ${registrations} agents over HTTP, timing until their feed is ranked and spread ...`);
    const client = new JsonClient(baseUrl, { maxSockets: 256 });
    const addresses = new LoopbackAddresses(true);
    const registerHistogram = new Histogram();
    const rankedHistogram = new Histogram();
    const spreadHistogram = new Histogram();
    for (let i = 0; i < registrations; i++) {
      const mine = new Set<string>();
      while (mine.size < 5) mine.add(interestName(interestOf()));
      const started = performance.now();
      // Each registration comes from an address of its own: the real per-address limit stays on.
      const res = await client.request<{ user_id: number }>('POST', '/api/v1/agents/register', {
        localAddress: addresses.next(),
        body: {
          email: `registered-${i}-${Date.now()}@bench.example`,
          password: 'Sturdy-Pass-42',
          display_name: `Registered ${i}`,
          birthdate: '1990-05-17',
          gender: 'nonbinary',
          interests: [...mine].join(', '),
          city: 'city-01',
          state: 'state-01',
        },
      });
      const body = res.body;
      if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
      registerHistogram.record(performance.now() - started);
      const id = String(body.user_id);
      await waitFor(() => probe.zscore(keys.rankedFeeds('agent', indexPartition(id)), id).then((s) => s !== null));
      rankedHistogram.record(performance.now() - started);
      await waitFor(() => probe.hexists(keys.spreadInterests('agent', indexPartition(id)), id).then((n) => n === 1));
      spreadHistogram.record(performance.now() - started);
    }
    await jobs.stop();
    jobs = undefined;

    // -- feed reads --------------------------------------------------------------------------------
    log(`reading feeds: ${reads} first pages in-process and over HTTP, plus pages of the unranked rest ...`);
    const tokens = new Map<number, string>();
    for (const id of sampled) tokens.set(id, (await app.tokens.issue(id, 'agent')).token);
    const feedServer = new Histogram();
    const feedHttp = new Histogram();
    const restServer = new Histogram();
    await probe.config('RESETSTAT');
    for (let i = 0; i < reads; i++) {
      const id = sampled[i % sampled.length]!;
      let started = performance.now();
      await discovery.feed({ pool: 'agent', userId: id }, { limit: 20 });
      feedServer.record(performance.now() - started);
      started = performance.now();
      const res = await fetch(`${baseUrl}/api/v1/discovery/feed?limit=20`, { headers: { authorization: `Bearer ${tokens.get(id)}` } });
      await res.arrayBuffer();
      feedHttp.record(performance.now() - started);
    }
    const readRedisMs = (await scriptMs(probe)) / Math.max(1, await scriptCalls(probe));
    // A page past the ranked part: resume after the last ranked entry.
    for (let i = 0; i < Math.min(reads, 500); i++) {
      const id = sampled[i % sampled.length]!;
      const last = await probe.zrange(keys.feed('agent', id), '0', '0', 'WITHSCORES');
      const after: FeedPosition | undefined = last.length ? { part: 'r', score: Number(last[1]), id: Number(last[0]) } : undefined;
      const started = performance.now();
      await discovery.feed({ pool: 'agent', userId: id }, { limit: 20, after });
      restServer.record(performance.now() - started);
    }

    // -- browse reads ------------------------------------------------------------------------------
    log(`browsing: ${reads} reads over ${BROWSE_QUERIES.length} filter combinations, in-process and over HTTP ...`);
    const browseServer = new Histogram();
    const browseHttp = new Histogram();
    const perQuery = new Map<string, Histogram>();
    for (let i = 0; i < reads; i++) {
      const id = sampled[i % sampled.length]!;
      const [label, filters] = BROWSE_QUERIES[i % BROWSE_QUERIES.length]!;
      let started = performance.now();
      await discovery.browse({ pool: 'agent', userId: id }, { interests_mode: 'any', ...filters }, { limit: 20 });
      const ms = performance.now() - started;
      browseServer.record(ms);
      if (!perQuery.has(label)) perQuery.set(label, new Histogram());
      perQuery.get(label)!.record(ms);
      started = performance.now();
      const res = await fetch(`${baseUrl}/api/v1/discovery/browse?limit=20&${queryString(filters)}`, {
        headers: { authorization: `Bearer ${tokens.get(id)}` },
      });
      if (res.status !== 200) throw new Error(`browse ${label}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      browseHttp.record(performance.now() - started);
    }

    // -- last, as it changes the data: a job in a pool where every feed counts as ranked ----------------
    log("marking every feed ranked, then timing whole jobs that must visit every sharer's feed ...");
    for (let i = 0; i < ids.length; i += 10_000) {
      const slice = ids.slice(i, i + 10_000);
      for (const part of ALL_PARTITIONS) {
        const mine = slice.filter((id) => indexPartition(id) === part);
        if (mine.length === 0) continue;
        await probe.zadd(keys.rankedFeeds('agent', part), 'NX', ...mine.flatMap((id) => [Date.now(), id]));
        await probe.zadd(keys.feedFloors('agent', part), 'NX', ...mine.flatMap((id) => [0, id]));
      }
    }
    const familiesRanked = familyFigures(await measureKeyFamilies(probe), agents);
    const fullHistogram = new Histogram();
    let fullChanged = 0;
    const fullSample = pick(ids, 10, random);
    cpuBefore = await cpuMs(probe);
    for (const id of fullSample) {
      const started = performance.now();
      const outcome = await ranker.refresh('agent', id);
      fullHistogram.record(performance.now() - started);
      fullChanged += outcome?.feedsChanged ?? 0;
    }

    const fullRedisMs = ((await cpuMs(probe)) - cpuBefore) / Math.max(1, fullSample.length);

    return {
      label: 'seeded: agents written straight into Redis by the service store and indexer code (no HTTP, no password hashing)',
      agents,
      interests: interestCount,
      zipf_exponent: zipfExponent,
      interests_per_agent_mean: round(interestTotal / agents),
      top_interest_holders: topHolders,
      seed_seconds: round(seedSeconds),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      jobs_heap_mb: jobsHeap,
      rank_one_feed_ms: { ...latency(rankHistogram), sharers_mean: Math.round(sharers / Math.max(1, sharerSample.length)), redis_ms_mean: round(rankRedisMs) },
      rank_and_spread_ms: {
        ...latency(refreshHistogram),
        feeds_changed_mean: Math.round(changed / Math.max(1, spreadSample.length)),
        candidates_mean: Math.round(considered / Math.max(1, spreadSample.length)),
        redis_ms_mean: round(refreshRedisMs),
      },
      rank_and_spread_fully_ranked_pool_ms: {
        ...latency(fullHistogram),
        feeds_changed_mean: Math.round(fullChanged / Math.max(1, fullSample.length)),
        redis_ms_mean: round(fullRedisMs),
      },
      registration_http_ms: latency(registerHistogram),
      registration_to_ranked_feed_ms: latency(rankedHistogram),
      registration_to_spread_done_ms: latency(spreadHistogram),
      feed_read_server_ms: { ...latency(feedServer), redis_ms_mean: round(readRedisMs) },
      feed_read_http_ms: latency(feedHttp),
      feed_read_server_metrics: serverShares(await app.metrics.render(), '/api/v1/discovery/feed'),
      feed_rest_page_server_ms: latency(restServer),
      browse_read_server_ms: {
        ...latency(browseServer),
        per_query_p99: Object.fromEntries([...perQuery].map(([label, h]) => [label, round(h.percentile(99))])),
      },
      browse_read_http_ms: latency(browseHttp),
      browse_read_server_metrics: serverShares(await app.metrics.render(), '/api/v1/discovery/browse'),
      redis_memory: {
        baseline_bytes: baseline,
        seeded_bytes_per_agent: Math.round(seededBytes / agents),
        ranked_feed_bytes_mean: Math.round(feedBytesMean),
        projected_bytes_per_agent_with_feed: Math.round(seededBytes / agents + feedBytesMean),
        families_seeded: familiesSeeded,
        families_every_feed_marked_ranked: familiesRanked,
      },
    };
  } finally {
    await jobs?.stop();
    probe.disconnect();
    await app.stop();
    await redis.stop();
  }
}

/** From the Prometheus text: the share of a route's 200 answers timed at or under 1, 2 and 5 ms. */
function serverShares(metrics: string, route: string) {
  const bucket = (le: string) => {
    const line = metrics
      .split('\n')
      .find(
        (l) => l.startsWith('http_request_duration_ms_bucket{') && l.includes(`route="${route}"`) && l.includes('status="200"') && l.includes(`le="${le}"`),
      );
    return Number(line?.split(' ').pop() ?? 0);
  };
  const total = Math.max(1, bucket('+Inf'));
  return { le_1ms: round(bucket('1') / total), le_2ms: round(bucket('2') / total), le_5ms: round(bucket('5') / total) };
}

function latency(histogram: Histogram): Latency {
  const s = summarize(histogram);
  return { count: s.count, mean: round(s.mean), p50: round(s.p50), p99: round(s.p99), max: round(s.max) };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Redis's own time (ms) in Lua scripts since the last CONFIG RESETSTAT. */
async function scriptMs(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  let usec = 0;
  for (const m of info.matchAll(/cmdstat_(?:evalsha|eval):calls=\d+,usec=(\d+)/g)) usec += Number(m[1]);
  return usec / 1000;
}

/** Redis's CPU time so far (ms, user + system): the difference across a loop is what Redis spent on it. */
async function cpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
}

/** Lua script calls since the last CONFIG RESETSTAT. */
async function scriptCalls(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  let calls = 0;
  for (const m of info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)) calls += Number(m[1]);
  return calls;
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

/** How many accounts share at least one of these interests (what a ranking unions). */
async function unionSize(redis: Redis, interests: string[]): Promise<number> {
  if (interests.length === 0) return 0;
  let total = 0;
  for (const part of ALL_PARTITIONS) total += (await redis.sunion(...interests.map((i) => keys.interestIndex('agent', part, i)))).length;
  return total;
}

/** How many accounts hold an interest, summed over the partitions. */
async function interestHolders(redis: Redis, interest: string): Promise<number> {
  let total = 0;
  for (const part of ALL_PARTITIONS) total += await redis.scard(keys.interestIndex('agent', part, interest));
  return total;
}

async function waitFor(probe: () => Promise<boolean>, ms = 30_000) {
  const started = performance.now();
  while (!(await probe())) {
    if (performance.now() - started > ms) throw new Error(`not done within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

function queryString(filters: Partial<BrowseFilters>): string {
  return Object.entries(filters)
    .map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`)
    .join('&');
}

function pick<T>(items: readonly T[], count: number, random: () => number): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.min(count, items.length); i++) out.push(items[Math.floor(random() * items.length)]!);
  return [...new Set(out)];
}

function birthdateForAge(age: number, random: () => number): string {
  const now = new Date();
  const born = new Date(Date.UTC(now.getUTCFullYear() - age - 1, now.getUTCMonth(), now.getUTCDate()) + Math.floor(random() * 364) * 86_400_000 + 86_400_000);
  return born.toISOString().slice(0, 10);
}

/** A sampler of ranks 1..n with P(rank r) ∝ 1 / r^s (the bench's Zipf sampler, made 1-based). */
function zipfRanks(n: number, s: number, random: () => number): () => number {
  const sample = zipf(n, s);
  return () => sample(random) + 1;
}

function printSummary(r: DiscoveryScaleResult) {
  const share = (m: { le_1ms: number; le_2ms: number; le_5ms: number }) =>
    `${(m.le_1ms * 100).toFixed(1)}% ≤ 1 ms, ${(m.le_2ms * 100).toFixed(1)}% ≤ 2 ms, ${(m.le_5ms * 100).toFixed(1)}% ≤ 5 ms`;
  const l = (x: Latency) => `p50 ${x.p50} ms, p99 ${x.p99} ms (mean ${x.mean}, max ${x.max}, n=${x.count})`;
  console.log(`
Discovery at scale — ${r.label}
  pool: ${r.agents} agents, ${r.interests} interests (Zipf s=${r.zipf_exponent}), ${r.interests_per_agent_mean} interests per agent, top interest held by ${r.top_interest_holders}; seeded in ${r.seed_seconds} s; peak RSS of this process ${r.peak_rss_mb} MB
  JS heap around the jobs:         ${r.rank_and_spread_ms.count} jobs: ${r.jobs_heap_mb.before} MB before, at most ${r.jobs_heap_mb.most_during} MB after one, ${r.jobs_heap_mb.after} MB after them
  rank one feed (own feed):        ${l(r.rank_one_feed_ms)}; ${r.rank_one_feed_ms.sharers_mean} sharers, ${r.rank_and_spread_ms.candidates_mean} of them considered per ranking; Redis busy ${r.rank_one_feed_ms.redis_ms_mean} ms each
  rank + spread (one job):         ${l(r.rank_and_spread_ms)}; ${r.rank_and_spread_ms.feeds_changed_mean} feeds changed per job; Redis busy ${r.rank_and_spread_ms.redis_ms_mean} ms each
  rank + spread, every feed ranked: ${l(r.rank_and_spread_fully_ranked_pool_ms)}; ${r.rank_and_spread_fully_ranked_pool_ms.feeds_changed_mean} feeds changed per job; Redis busy ${r.rank_and_spread_fully_ranked_pool_ms.redis_ms_mean} ms each
  registration over HTTP:          ${l(r.registration_http_ms)}
  registration → ranked feed:      ${l(r.registration_to_ranked_feed_ms)}
  registration → spread done:      ${l(r.registration_to_spread_done_ms)}
  feed read, server-side:          ${l(r.feed_read_server_ms)}; Redis busy ${r.feed_read_server_ms.redis_ms_mean} ms each
  feed read, HTTP round trip:      ${l(r.feed_read_http_ms)}
  feed read, server's own timing:  ${share(r.feed_read_server_metrics)}
  feed page past the ranked part:  ${l(r.feed_rest_page_server_ms)}
  browse read, server-side:        ${l(r.browse_read_server_ms)}
  browse read, HTTP round trip:    ${l(r.browse_read_http_ms)}
  browse read, server's own timing: ${share(r.browse_read_server_metrics)}
  browse p99 per query (server):   ${Object.entries(r.browse_read_server_ms.per_query_p99)
    .map(([q, ms]) => `${q}: ${ms}`)
    .join('; ')}
  Redis memory per agent:          ${r.redis_memory.seeded_bytes_per_agent} B seeded (profile + indexes) + ${r.redis_memory.ranked_feed_bytes_mean} B ranked feed = ${r.redis_memory.projected_bytes_per_agent_with_feed} B
  Redis memory by kind of key, right after seeding (B/agent: MEMORY USAGE summed over the kind, per seeded agent):
${familyTable(r.redis_memory.families_seeded)}
  … once every feed is marked ranked (a ranked-at and a floor entry per agent):
${familyTable(r.redis_memory.families_every_feed_marked_ranked)}
`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      agents: { type: 'string', default: '100000' },
      interests: { type: 'string', default: '2000' },
      sample: { type: 'string', default: '200' },
      reads: { type: 'string', default: '2000' },
      registrations: { type: 'string', default: '20' },
      jobs: { type: 'string', default: '50' },
      seed: { type: 'string', default: '42' },
      json: { type: 'boolean', default: false },
    },
  });
  const result = await runDiscoveryScale({
    agents: Number(values.agents),
    interests: Number(values.interests),
    sample: Number(values.sample),
    reads: Number(values.reads),
    registrations: Number(values.registrations),
    jobs: Number(values.jobs),
    seed: Number(values.seed),
    log: (line) => console.error(line),
  });
  if (values.json) console.log(JSON.stringify(result, null, 2));
  else printSummary(result);
  process.exit(0);
}
