/**
 * `npm run bench`: starts (or reaches) the service, measures the ceilings, runs the chosen scenarios,
 * prints a table and writes bench/results/<timestamp>.json and .html. See `npm run bench -- --help`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { HelloCeiling, measureCeilings } from './lib/ceilings.js';
import { killAllChildren, REPO_ROOT, runMain } from './lib/children.js';
import { helpText, parseCli, UsageError } from './lib/cli.js';
import { JsonClient } from '../src/clients/json-client.js';
import { LoopbackAddresses } from './lib/loopback.js';
import { waitReady } from './lib/service-ready.js';
import { Monitor } from './lib/monitor.js';
import { Population } from './lib/population.js';
import { Progress } from './lib/progress.js';
import { machineInfo, type BenchReport } from './lib/report.js';
import { renderHtml } from './lib/report-html.js';
import { renderTable } from './lib/report-table.js';
import { seedAgents } from './lib/seed.js';
import { runCompare } from './lib/compare-run.js';
import { compare, readMasters, type ClusterRun } from './lib/cluster-comparison.js';
import { redisInfo } from './lib/monitor.js';
import { isLoopback, startClusterService, startEmbeddedService, targetTopology, urlTarget, type Target } from './lib/target.js';
import { clusterSeed } from '../src/platform/redis/redis-topology.js';
import { emptyResult, type BenchContext, type BenchOptions, type ScenarioResult } from './lib/types.js';
import { DEFAULT_SCENARIOS, SCENARIOS } from './scenarios/index.js';
import { findWrk } from './lib/wrk.js';
import { WrkScript } from './lib/wrk-script.js';

async function main(): Promise<number> {
  let options: BenchOptions | undefined;
  try {
    options = parseCli(
      process.argv.slice(2),
      SCENARIOS.map((s) => s.name),
      DEFAULT_SCENARIOS,
    );
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n(npm run bench -- --help lists the options)`);
      return 2;
    }
    throw error;
  }
  if (!options) {
    console.log(helpText(SCENARIOS, DEFAULT_SCENARIOS));
    return 0;
  }
  if (options.report) {
    const earlier = JSON.parse(readFileSync(options.report, 'utf8')) as BenchReport;
    writeFileSync(options.report.replace(/\.json$/, '.html'), renderHtml(earlier));
    console.log(renderTable(earlier));
    return 0;
  }

  const progress = new Progress();
  const startedAt = new Date();
  let aborted = false;
  const abort = (why: string) => {
    if (aborted) return;
    aborted = true;
    progress.info(`${why}: finishing the current phase, then writing the report`);
  };
  const overall = setTimeout(() => abort(`the ${options.maxMinutes}-minute bound is reached`), options.maxMinutes * 60_000);
  overall.unref();
  const hardStop = setTimeout(
    () => {
      console.error('the bench overran its time bound by two minutes: stopping its children and exiting');
      killAllChildren();
      process.exit(3);
    },
    (options.maxMinutes + 2) * 60_000,
  );
  hardStop.unref();
  process.on('SIGTERM', () => {
    console.error('SIGTERM: stopping the children and exiting without a report');
    killAllChildren();
    process.exit(143);
  });
  // npm and tsx relay the terminal's SIGINT too, so one Ctrl-C can arrive two or three times at once.
  let firstInterrupt = 0;
  process.on('SIGINT', () => {
    if (firstInterrupt === 0) {
      firstInterrupt = Date.now();
      abort('interrupted (Ctrl-C again to stop at once)');
    } else if (Date.now() - firstInterrupt > 1_000) {
      console.error('interrupted twice: stopping the children and exiting without a report');
      killAllChildren();
      process.exit(130);
    }
  });

  if (options.compare || options.replicaAck) {
    try {
      return await compareMain(options, progress, startedAt, () => aborted);
    } finally {
      clearTimeout(overall);
      clearTimeout(hardStop);
    }
  }

  progress.section(options.url ? `target ${options.url}` : 'starting the service (embedded default)');
  const target: Target = options.url ? urlTarget(options.url, options.redisUrl) : await startEmbeddedService((line) => progress.info(line));
  const redis = target.redisUrl ? new Redis(target.redisUrl, { lazyConnect: true, enableAutoPipelining: false, maxRetriesPerRequest: 2 }) : undefined;
  redis?.on('error', () => {});
  const api = new JsonClient(target.baseUrl, { maxSockets: 256 });
  const monitor = new Monitor(target.baseUrl, target.pid, redis, target.metricsToken);
  let stopped: Promise<void> | undefined;
  const stopTarget = () => (stopped ??= target.stop());
  let report: BenchReport | undefined;
  let hello: HelloCeiling | undefined;
  const wrk = wrkSetup(options);
  try {
    await redis?.connect();
    await waitReady(api);
    const routes = await openApiRoutes(api);
    const addresses = new LoopbackAddresses(isLoopback(target.host));
    if (!isLoopback(target.host))
      progress.info('the target is not on loopback: clients cannot spread over source addresses, so registrations are paced by the real limit');
    monitor.start();

    progress.section('ceilings');
    hello = await HelloCeiling.start(addresses);
    const ceiling = hello;
    const ceilings = await measureCeilings(options, target, ceiling, addresses, progress, wrk);

    const runId = `${startedAt.getTime().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
    const ctx: BenchContext = {
      options,
      target,
      redis,
      api,
      monitor,
      addresses,
      population: new Population(target, addresses, runId, progress),
      progress,
      ceilings,
      helloNow: async (durationMs) =>
        (await ceiling.measure({ connections: options.connections, durationMs, warmupMs: options.warmup * 1000, maxRequests: options.maxRequests })).throughput,
      helloWrkNow: async (durationMs, agentsFile) =>
        'path' in wrk
          ? ceiling.measureWrk({ wrk: wrk.path, script: wrk.script, agentsFile, threads: options.wrkThreads, connections: options.wrkConnections, durationMs })
          : undefined,
      wrk,
      facts: {},
      runId,
      hasRoute: (method, path) => routes.has(`${method.toUpperCase()} ${path}`),
      aborted: () => aborted,
    };

    const scenarios = await runScenarios(ctx);
    const singleUsedMemory = redis
      ? await redisInfo(redis, 'memory').then(
          (info) => info.used_memory,
          () => undefined,
        )
      : undefined;
    const redisVersion = redis
      ? await redis.info('server').then(
          (info) => /redis_version:(\S+)/.exec(info)?.[1],
          () => undefined,
        )
      : undefined;

    let cluster: ClusterRun | undefined;
    if (options.cluster && !aborted) {
      // The single-node target is stopped first: the cluster run gets the machine's cores to itself, as it had.
      monitor.stop();
      redis?.disconnect();
      await stopTarget();
      cluster = await runOnCluster(ctx, scenarios, singleUsedMemory).catch((error: Error) => {
        progress.info(`the cluster run failed: ${error.stack ?? error.message}`);
        return { nodes: [], processes: [], scenarios: [], masters: [], comparison: [], serverProblems: [], error: error.message };
      });
    }
    report = {
      version: 1,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
      machine: machineInfo(redisVersion),
      target: { kind: target.kind, baseUrl: target.baseUrl, redis: target.redisUrl },
      options,
      ceilings,
      scenarios,
      serverProblems: target.problems,
      cluster,
    };
  } finally {
    monitor.stop();
    api.close();
    redis?.disconnect();
    progress.section('stopping');
    await hello?.stop();
    await stopTarget();
    if ('script' in wrk) wrk.script.remove();
    clearTimeout(overall);
    clearTimeout(hardStop);
  }

  if (!report) return 1;
  writeReport(report, options, startedAt);
  return report.cluster?.error || [...report.scenarios, ...(report.cluster?.scenarios ?? [])].some((s) => s.error) ? 1 : 0;
}

/** --compare: the ref's service and the work tree's in turns; the report holds their figures and tree / ref. */
async function compareMain(options: BenchOptions, progress: Progress, startedAt: Date, aborted: () => boolean): Promise<number> {
  const { run, problems } = await runCompare(options, progress, aborted);
  const report: BenchReport = {
    version: 1,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    machine: machineInfo(),
    target: { kind: 'embedded', baseUrl: 'two embedded services, one per tree' },
    options,
    ceilings: {},
    scenarios: [],
    serverProblems: problems,
    compare: run,
  };
  writeReport(report, options, startedAt);
  return run.error || run.samples.length === 0 ? 1 : 0;
}

function writeReport(report: BenchReport, options: BenchOptions, startedAt: Date) {
  const outDir = resolve(REPO_ROOT, options.out);
  mkdirSync(outDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const jsonPath = join(outDir, `${stamp}.json`);
  const htmlPath = join(outDir, `${stamp}.html`);
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(htmlPath, renderHtml(report));
  console.log(`\n${renderTable(report)}\n`);
  console.log(`Reports: ${jsonPath}\n         ${htmlPath}`);
}

/** Seeds when asked, then runs the chosen scenarios against ctx.target, one after another. */
async function runScenarios(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { options, progress } = ctx;
  const results: ScenarioResult[] = [];
  let seeded = false;
  if (options.seed > 0) {
    progress.section(`seeding ${options.seed} agents straight into Redis`);
    const topology = targetTopology(ctx.target);
    if (!topology) throw new Error('--seed needs the target Redis: it is known for the embedded default, or pass --redis-url');
    const { seconds } = await seedAgents(topology, options.seed, ctx.runId, progress);
    progress.info(`seeded ${options.seed} agents in ${seconds.toFixed(1)}s`);
    seeded = true;
  }
  for (const name of options.scenarios) {
    const scenario = SCENARIOS.find((s) => s.name === name)!;
    if (ctx.aborted()) {
      results.push({ ...emptyResult(scenario), skipped: 'the run was stopped before it' });
      continue;
    }
    progress.section(`${scenario.name}: ${scenario.title}${ctx.target.kind === 'cluster' ? ' [Redis Cluster]' : ''}`);
    const started = performance.now();
    let result: ScenarioResult;
    try {
      result = await scenario.run(ctx);
    } catch (error) {
      progress.endLive();
      progress.info(`failed: ${(error as Error).stack ?? String(error)}`);
      result = { ...emptyResult(scenario), error: (error as Error).message };
    }
    result.seconds = (performance.now() - started) / 1000;
    if (seeded && !result.skipped) result.seeded = true;
    results.push(result);
  }
  return results;
}

/**
 * The same scenarios again on a three-master Redis Cluster with two service processes: the load generator
 * spreads its connections over both, the agent-life sockets alternate between them. Then used_memory and
 * keys of each master.
 */
async function runOnCluster(single: BenchContext, singleResults: ScenarioResult[], singleUsedMemory: number | undefined): Promise<ClusterRun> {
  const { progress } = single;
  progress.section(
    `starting a three-master Redis Cluster${single.options.clusterReplicas > 0 ? ` with ${single.options.clusterReplicas} replica(s) each` : ''} and two service processes on it`,
  );
  const target = await startClusterService((line) => progress.info(line), { replicas: single.options.clusterReplicas });
  const api = new JsonClient(target.baseUrl, { maxSockets: 256 });
  // Every master on a connection of its own, for its CPU (INFO cpu) beside every service process's.
  const masters = target.clusterNodes!.map((node) => {
    const redis = new Redis({ ...clusterSeed(node), maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    return redis;
  });
  const monitor = new Monitor(target.baseUrl, target.pid, undefined, target.metricsToken, { pids: target.pids ?? [], redisNodes: masters });
  try {
    await Promise.all(
      target.baseUrls.map(async (url) => {
        const client = new JsonClient(url, { maxSockets: 1 });
        await waitReady(client).finally(() => client.close());
      }),
    );
    monitor.start();
    const ctx: BenchContext = {
      ...single,
      target,
      redis: undefined,
      api,
      monitor,
      population: new Population(target, single.addresses, single.runId, progress),
      facts: {},
    };
    const scenarios = await runScenarios(ctx);
    const masterFigures = await readMasters(target.clusterNodes!);
    return {
      nodes: target.clusterNodes!,
      processes: target.baseUrls,
      scenarios,
      masters: masterFigures,
      comparison: compare(singleResults, scenarios, singleUsedMemory, masterFigures),
      serverProblems: target.problems,
    };
  } finally {
    monitor.stop();
    api.close();
    for (const master of masters) master.disconnect();
    await target.stop();
  }
}

/** wrk and its Lua script in a temporary directory when wrk is on PATH and not turned off, else why not. */
function wrkSetup(options: BenchOptions): BenchContext['wrk'] {
  if (!options.wrk) return { missing: 'turned off (--no-wrk)' };
  const path = findWrk();
  if (!path) return { missing: 'wrk is not on PATH (Debian package wrk)' };
  return { path, script: WrkScript.create() };
}

/** `METHOD /path/{param}` of every route the service documents. */
async function openApiRoutes(api: JsonClient): Promise<Set<string>> {
  const res = await api.get('/api/v1/openapi.json');
  const routes = new Set<string>();
  for (const [path, methods] of Object.entries((res.body?.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(methods)) routes.add(`${method.toUpperCase()} ${path}`);
  }
  return routes;
}

runMain(main);
