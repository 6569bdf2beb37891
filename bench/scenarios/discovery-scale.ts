import type { OperationStats } from '../lib/recorder.js';
import { emptyResult, type Scenario } from '../lib/types.js';

type Latency = { count: number; mean?: number; p50: number; p99: number; max: number };
type SeededRun = (opts: { agents: number; log?: (line: string) => void }) => Promise<object & { label?: string }>;

type SeededScenarioSpec = Pick<Scenario, 'name' | 'title' | 'summary'> & {
  /** The bench module (relative to this file, as .js) and the function it exports. */
  module: string;
  exportName: string;
  note: string;
};

/**
 * A scenario running a standalone seeded bench (its own private Redis and in-process server, a pool of
 * --scale-agents agents seeded straight into Redis through the service's store and indexer code), loaded
 * at run time so the runner works whether or not the module is there. Its figures are folded into the
 * report as they come, labelled seeded.
 */
function seededScenario(spec: SeededScenarioSpec): Scenario {
  return {
    name: spec.name,
    title: spec.title,
    summary: spec.summary,
    async run(ctx) {
      const result = emptyResult(this);
      let run: SeededRun | undefined;
      try {
        run = ((await import(spec.module)) as Record<string, SeededRun | undefined>)[spec.exportName];
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return { ...result, skipped: `${spec.module} is not there` };
        throw error;
      }
      if (!run) return { ...result, skipped: `${spec.module} does not export ${spec.exportName}` };
      ctx.progress.info(`${ctx.options.scaleAgents} seeded agents in a private Redis and an in-process server (this takes a while)…`);
      const started = performance.now();
      const figures = await run({ agents: ctx.options.scaleAgents, log: (line) => ctx.progress.info(line.trim()) });
      const seconds = (performance.now() - started) / 1000;
      result.seeded = true;
      if ('label' in figures && typeof figures.label === 'string') result.notes.push(figures.label);
      result.notes.push(spec.note);
      const operations: Record<string, OperationStats> = {};
      for (const [name, value] of Object.entries(figures)) {
        if (name === 'label') continue;
        if (isLatency(value)) operations[name] = asOperation(value);
        flatten(name, value, result.figures);
      }
      if (Object.keys(operations).length > 0) {
        result.phases.push({
          name: 'seeded pool',
          description: `${ctx.options.scaleAgents} seeded agents; see the figures for what each line times`,
          operations,
        });
      }
      result.figures.scenario_seconds = seconds;
      return result;
    },
  };
}

/** Discovery at scale (bench/discovery-scale.ts): a large pool with Zipf interests. */
export const discoveryScaleScenario = seededScenario({
  name: 'discovery-scale',
  title: 'Discovery at scale (seeded pool, Zipf interests)',
  summary: 'bench/discovery-scale.ts: rank, registration-to-feed, feed and browse reads, memory per agent over --scale-agents seeded agents',
  module: '../discovery-scale.js',
  exportName: 'runDiscoveryScale',
  note: 'Runs against its own private Redis and an in-process server, not the bench target; latencies are single requests one at a time.',
});

/** Adversarial browse (bench/adversarial-browse.ts): how long the broadest queries and ranking jobs hold Redis. */
export const adversarialBrowseScenario = seededScenario({
  name: 'adversarial-browse',
  title: 'Adversarial browse (seeded pool): /readyz latency and the longest Redis command',
  summary:
    'bench/adversarial-browse.ts: broad browse queries from several clients, then ranking jobs, over --scale-agents seeded agents; /readyz latency and the SLOWLOG worst entries',
  module: '../adversarial-browse.js',
  exportName: 'runAdversarialBrowse',
  note: 'Runs against its own private Redis and an in-process server, not the bench target.',
});

function isLatency(value: unknown): value is Latency {
  return typeof value === 'object' && value !== null && 'p50' in value && 'p99' in value && 'count' in value;
}

function asOperation(latency: Latency): OperationStats {
  return {
    count: latency.count,
    throughput: NaN,
    latency: { count: latency.count, mean: latency.mean ?? NaN, p50: latency.p50, p95: NaN, p99: latency.p99, p999: NaN, max: latency.max },
    outcomes: { ok: latency.count },
    timeline: [],
    buckets: [],
  };
}

const LATENCY_FIELDS = new Set(['count', 'mean', 'p50', 'p99', 'max']);

/** Nested figures as `a.b` names; the latency fields of a timing are left out (they are its table line). */
function flatten(prefix: string, value: unknown, out: Record<string, number | string>) {
  if (typeof value === 'number' || typeof value === 'string') out[prefix] = value;
  else if (typeof value === 'object' && value !== null) {
    const timing = isLatency(value);
    for (const [k, v] of Object.entries(value)) if (!timing || !LATENCY_FIELDS.has(k)) flatten(`${prefix}.${k}`, v, out);
  }
}
