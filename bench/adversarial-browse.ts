/**
 * Adversarial browse at scale: seeds a pool (seeded, like bench/discovery-scale.ts), then has several
 * clients page through the broadest, costliest browse queries a caller can send while a prober times
 * `GET /readyz` (one Redis PING: it waits for whatever holds Redis). Redis's SLOWLOG (reset first, every
 * command over a small threshold kept) names the longest single command. Then it times ranking jobs in a
 * pool where every feed counts as ranked (each job then spreads into every sharer's feed), again reading
 * the SLOWLOG for the longest ranking script.
 *
 *   npx tsx bench/adversarial-browse.ts --agents 100000 [--clients 4] [--seconds 20] [--jobs 20] [--seed 42] [--json]
 */
import { AccountReadsRepository } from '../src/features/accounts/account-reads-repository.js';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { FeedRanker } from '../src/features/discovery/feed-ranker.js';
import { DiscoveryIndexRepository } from '../src/features/discovery/discovery-index-repository.js';
import { FeedRepository } from '../src/features/discovery/feed-repository.js';
import { keys } from '../src/platform/redis/keys.js';
import { ALL_PARTITIONS, indexPartition } from '../src/platform/redis/key-space.js';
import { loadScripts } from '../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR } from '../src/platform/redis/scripts.js';
import { spawnTs, stopChild, waitForLine } from './lib/children.js';
import { Histogram, summarize } from './lib/histogram.js';
import { prng } from './lib/profiles.js';
import { cityName, interestName, seedZipfPool, stateName, stateOfCity } from './lib/zipf-pool.js';
import { startPrivateRedis } from './lib/private-redis.js';
import { startBenchApp } from './lib/bench-app.js';

export type AdversarialBrowseOptions = {
  agents: number;
  interests?: number;
  /** Concurrent clients each paging through the adversarial queries. */
  clients?: number;
  seconds?: number;
  /** Ranking jobs timed in the fully ranked pool. */
  jobs?: number;
  seed?: number;
  log?: (line: string) => void;
};

type Latency = { count: number; p50: number; p99: number; max: number };
type SlowEntry = { ms: number; command: string };

export type AdversarialBrowseResult = {
  label: string;
  agents: number;
  clients: number;
  readyz_idle_ms: Latency;
  readyz_under_browse_ms: Latency;
  browse_pages: { count: number; per_second: number; short_with_cursor: number; empty_with_cursor: number; http_ms: Latency };
  /** The longest single Redis command while the browse clients ran (SLOWLOG). */
  browse_worst_command: SlowEntry;
  /** Every browse script call's own duration (SLOWLOG keeps every command over 0.1 ms). */
  browse_script_ms: Latency;
  readyz_under_jobs_ms: Latency;
  rank_job_ms: Latency;
  /** The longest single ranking-job command (SLOWLOG), and the longest per script. */
  rank_worst_command: SlowEntry;
  /** Every ranking-job command's duration, scripts and plain commands alike (those over 0.1 ms). */
  rank_command_ms: Latency;
  rank_worst_per_script_ms: Record<string, number>;
};

/** Broad queries: every gender, many interests, a city and a state no account has both of, the full age range. */
function adversarialQueries(): Array<[string, string]> {
  const genders = 'gender=man,woman,nonbinary,other';
  const ages = 'min_age=18&max_age=150';
  const commonest = Array.from({ length: 30 }, (_, i) => interestName(i + 1)).join(',');
  const middling = Array.from({ length: 30 }, (_, i) => interestName(100 + i)).join(',');
  const places = `city=${cityName(1)}&state=${stateName(stateOfCity(1) + 1)}`;
  return [
    ['30 commonest interests, all', `${genders}&interests=${commonest}&interests_mode=all&${places}&${ages}&limit=100`],
    ['30 middling interests, any', `${genders}&interests=${middling}&interests_mode=any&${places}&${ages}&limit=100`],
    ['30 commonest interests, any', `${genders}&interests=${commonest}&interests_mode=any&${places}&${ages}&limit=100`],
  ];
}

export async function runAdversarialBrowse(opts: AdversarialBrowseOptions): Promise<AdversarialBrowseResult> {
  const { agents, interests = 2_000, clients = 4, seconds = 20, jobs = 20, seed = 42, log = () => {} } = opts;
  const random = prng(seed);
  const redis = await startPrivateRedis('adversarial-browse');
  const app = await startBenchApp(redis.topology);
  const probe = new Redis(redis.url);
  const baseUrl = `http://127.0.0.1:${app.port}`;
  const scriptNames = scriptsBySha();
  try {
    log(`seeding ${agents} agents (store + indexer, no HTTP) ...`);
    const ids = await seedZipfPool(app, { agents, interests, random, log });
    await probe.config('SET', 'slowlog-max-len', '100000');
    await probe.config('SET', 'slowlog-log-slower-than', '100');

    log('timing /readyz with nothing else running ...');
    const idle = await probeReadyz(baseUrl, () => new Promise((r) => setTimeout(r, 3_000)));

    log(`${clients} clients paging through ${adversarialQueries().length} adversarial browse queries for ${seconds} s, timing /readyz ...`);
    const tokens = await Promise.all(
      Array.from({ length: clients }, () => app.tokens.issue(ids[Math.floor(random() * ids.length)]!, 'agent').then((t) => t.token)),
    );
    await probe.slowlog('RESET');
    const browsing = spawnTs('bench/lib/http-loop-child.ts', [
      'browse',
      JSON.stringify({ baseUrl, tokens, queries: adversarialQueries().map(([, q]) => q), seconds, limit: 100 }),
    ]);
    let pages: { count: number; short: number; empty: number; http: Latency } | undefined;
    const underBrowse = await probeReadyz(baseUrl, async () => {
      pages = await waitForLine(
        browsing,
        (line) => (line.startsWith('RESULT ') ? JSON.parse(line.slice(7)) : undefined),
        (seconds + 60) * 1000,
        'the browse clients',
      );
    });
    const browseEntries = await slowlog(probe);
    const browseScripts = new Histogram();
    for (const entry of browseEntries) if (commandLabel(entry.args, scriptNames) === 'script browse') browseScripts.record(entry.us / 1000);
    const browseWorst = worstEntry(browseEntries, scriptNames);

    log("marking every feed ranked (empty, so each job spreads into every sharer's feed), then timing ranking jobs ...");
    for (let i = 0; i < ids.length; i += 10_000) {
      const slice = ids.slice(i, i + 10_000);
      for (const part of ALL_PARTITIONS) {
        const mine = slice.filter((id) => indexPartition(id) === part);
        if (mine.length === 0) continue;
        await probe.zadd(keys.rankedFeeds('agent', part), 'NX', ...mine.flatMap((id) => [Date.now(), id]));
        await probe.zadd(keys.feedFloors('agent', part), 'NX', ...mine.flatMap((id) => [0, id]));
      }
    }
    const index = new DiscoveryIndexRepository(app.redis, app.scripts, new AccountReadsRepository(app.redis, app.scripts));
    const ranker = new FeedRanker(index, new FeedRepository(app.redis, app.scripts));
    const jobHistogram = new Histogram();
    await probe.slowlog('RESET');
    const underJobs = await probeReadyz(baseUrl, async () => {
      for (let j = 0; j < jobs; j++) {
        const started = performance.now();
        await ranker.refresh('agent', ids[Math.floor(random() * ids.length)]!);
        jobHistogram.record(performance.now() - started);
      }
    });
    const jobEntries = await slowlog(probe);
    const jobCommands = new Histogram();
    const perScript: Record<string, number> = {};
    for (const entry of jobEntries) {
      if (commandLabel(entry.args, scriptNames) === 'slowlog') continue;
      jobCommands.record(entry.us / 1000);
      const name = commandLabel(entry.args, scriptNames);
      perScript[name] = Math.max(perScript[name] ?? 0, round(entry.us / 1000));
    }

    return {
      label: 'seeded: agents written straight into Redis by the service store and indexer code (no HTTP, no password hashing)',
      agents,
      clients,
      readyz_idle_ms: idle,
      readyz_under_browse_ms: underBrowse,
      browse_pages: {
        count: pages!.count,
        per_second: round(pages!.count / seconds),
        short_with_cursor: pages!.short,
        empty_with_cursor: pages!.empty,
        http_ms: pages!.http,
      },
      browse_worst_command: browseWorst,
      browse_script_ms: latency(browseScripts),
      readyz_under_jobs_ms: underJobs,
      rank_job_ms: latency(jobHistogram),
      rank_worst_command: worstEntry(
        jobEntries.filter((e) => commandLabel(e.args, scriptNames) !== 'slowlog'),
        scriptNames,
      ),
      rank_command_ms: latency(jobCommands),
      rank_worst_per_script_ms: perScript,
    };
  } finally {
    probe.disconnect();
    await app.stop();
    await redis.stop();
  }
}

/** Times GET /readyz back to back (2 ms apart), from a process of its own, while `during` runs. */
async function probeReadyz(baseUrl: string, during: () => Promise<unknown>): Promise<Latency> {
  const prober = spawnTs('bench/lib/http-loop-child.ts', ['probe', JSON.stringify({ url: `${baseUrl}/readyz` })]);
  await waitForLine(prober, (line) => (line === 'READY' ? true : undefined), 60_000, 'the /readyz prober');
  const result = waitForLine(
    prober,
    (line) => (line.startsWith('RESULT ') ? (JSON.parse(line.slice(7)) as Latency) : undefined),
    600_000,
    'the /readyz prober',
  );
  try {
    await during();
  } finally {
    prober.kill('SIGTERM');
  }
  const latencies = await result;
  await stopChild(prober);
  return latencies;
}

type RawEntry = { us: number; args: string[]; client: string };

async function slowlog(redis: Redis): Promise<RawEntry[]> {
  const raw = (await redis.slowlog('GET', 100_000)) as Array<[number, number, number, string[], string]>;
  return raw.map(([, , us, args, client]) => ({ us, args: args.map(String), client: String(client ?? '') }));
}

function worstEntry(entries: RawEntry[], names: Map<string, string>): SlowEntry {
  const worst = entries.reduce<RawEntry | undefined>((a, b) => (!a || b.us > a.us ? b : a), undefined);
  return worst ? { ms: round(worst.us / 1000), command: commandLabel(worst.args, names) } : { ms: 0, command: 'none over 0.1 ms' };
}

/**
 * A script call as its name (lua/<name>.lua): EVALSHA by its SHA, EVAL by the start of its source (SLOWLOG
 * keeps 128 bytes of an argument). Anything else as its command name.
 */
function commandLabel(args: string[], names: Map<string, string>): string {
  const command = (args[0] ?? '').toLowerCase();
  if (command === 'evalsha') return `script ${names.get(args[1] ?? '') ?? args[1]}`;
  if (command === 'eval') {
    const source = args[1] ?? '';
    const found = [...names].find(([key]) => key.startsWith('src:') && source.startsWith(key.slice(4, 4 + Math.min(100, source.length))));
    return `script ${found ? found[1] : '(eval)'}`;
  }
  return command;
}

/** lua/ script names by SHA1, and by "src:" plus the first 100 characters of their source. */
function scriptsBySha(): Map<string, string> {
  const out = new Map<string, string>();
  for (const { name, lua, sha } of loadScripts(LUA_DIRS, SHARED_LUA_DIR).values()) {
    out.set(sha, name);
    out.set(`src:${lua.slice(0, 100)}`, name);
  }
  return out;
}

function latency(histogram: Histogram): Latency {
  const s = summarize(histogram);
  return { count: s.count, p50: round(s.p50), p99: round(s.p99), max: round(s.max) };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      agents: { type: 'string', default: '100000' },
      clients: { type: 'string', default: '4' },
      seconds: { type: 'string', default: '20' },
      jobs: { type: 'string', default: '20' },
      seed: { type: 'string', default: '42' },
      json: { type: 'boolean', default: false },
    },
  });
  const r = await runAdversarialBrowse({
    agents: Number(values.agents),
    clients: Number(values.clients),
    seconds: Number(values.seconds),
    jobs: Number(values.jobs),
    seed: Number(values.seed),
    log: (line) => console.error(line),
  });
  const l = (x: Latency) => `p50 ${x.p50} ms, p99 ${x.p99} ms, max ${x.max} ms (n=${x.count})`;
  if (values.json) console.log(JSON.stringify(r, null, 2));
  else {
    console.log(`
Adversarial browse — ${r.label}
  pool: ${r.agents} agents; ${r.clients} browse clients
  /readyz, idle:                 ${l(r.readyz_idle_ms)}
  /readyz, under browse:         ${l(r.readyz_under_browse_ms)}
  browse pages:                  ${r.browse_pages.count} (${r.browse_pages.per_second}/s), ${r.browse_pages.short_with_cursor} short with a cursor (${r.browse_pages.empty_with_cursor} empty); HTTP ${l(r.browse_pages.http_ms)}
  worst command while browsing:  ${r.browse_worst_command.ms} ms (${r.browse_worst_command.command}); browse script calls: ${l(r.browse_script_ms)}
  /readyz, under ranking jobs:   ${l(r.readyz_under_jobs_ms)}
  ranking job (every feed ranked): ${l(r.rank_job_ms)}
  ranking-job commands:          ${l(r.rank_command_ms)}
  worst ranking-job command:     ${r.rank_worst_command.ms} ms (${r.rank_worst_command.command}); per script: ${Object.entries(r.rank_worst_per_script_ms)
    .map(([k, v]) => `${k} ${v} ms`)
    .join(', ')}
`);
  }
  process.exit(0);
}
