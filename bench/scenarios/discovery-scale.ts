import type { OperationStats } from '../lib/recorder.js';
import { emptyResult, type Scenario } from '../lib/types.js';

type Latency = { count: number; mean: number; p50: number; p99: number; max: number };
type RunDiscoveryScale = (opts: { agents: number; log?: (line: string) => void }) => Promise<Record<string, unknown> & { label?: string }>;

/** Loaded at run time, so the runner works whether or not bench/discovery-scale.ts is there. */
const MODULE = '../discovery-scale.js';

/**
 * Discovery at scale (bench/discovery-scale.ts): a large pool with Zipf interests
 * seeded straight into a private Redis through the service's store and indexer code. Its figures are
 * folded into the report as they come, labelled seeded.
 */
export const discoveryScaleScenario: Scenario = {
  name: 'discovery-scale',
  title: 'Discovery at scale (seeded pool, Zipf interests)',
  summary: 'bench/discovery-scale.ts: rank, registration-to-feed, feed and browse reads, memory per agent over --scale-agents seeded agents',
  async run(ctx) {
    const result = emptyResult(this);
    let run: RunDiscoveryScale | undefined;
    try {
      run = ((await import(MODULE)) as { runDiscoveryScale?: RunDiscoveryScale }).runDiscoveryScale;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return { ...result, skipped: 'bench/discovery-scale.ts is not there' };
      throw error;
    }
    if (!run) return { ...result, skipped: 'bench/discovery-scale.ts does not export runDiscoveryScale' };
    ctx.progress.info(`${ctx.options.scaleAgents} seeded agents in a private Redis and an in-process server (this takes a while)…`);
    const started = performance.now();
    const figures = await run({ agents: ctx.options.scaleAgents, log: (line) => ctx.progress.info(line.trim()) });
    const seconds = (performance.now() - started) / 1000;
    result.seeded = true;
    if (typeof figures.label === 'string') result.notes.push(figures.label);
    result.notes.push('Runs against its own private Redis and an in-process server, not the bench target; latencies are single requests one at a time.');
    const operations: Record<string, OperationStats> = {};
    for (const [name, value] of Object.entries(figures)) {
      if (name === 'label') continue;
      if (isLatency(value)) operations[name] = asOperation(value);
      flatten(name, value, result.figures);
    }
    if (Object.keys(operations).length > 0) {
      result.phases.push({ name: 'seeded pool', description: `${ctx.options.scaleAgents} seeded agents; see the figures for what each line times`, operations });
    }
    result.figures.scenario_seconds = seconds;
    return result;
  },
};

function isLatency(value: unknown): value is Latency {
  return typeof value === 'object' && value !== null && 'p50' in value && 'p99' in value && 'count' in value;
}

function asOperation(latency: Latency): OperationStats {
  return {
    count: latency.count,
    throughput: NaN,
    latency: { count: latency.count, mean: latency.mean, p50: latency.p50, p95: NaN, p99: latency.p99, p999: NaN, max: latency.max },
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
