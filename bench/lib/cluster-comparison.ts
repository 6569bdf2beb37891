import { readMasterStats } from './master-stats.js';
import type { ScenarioResult } from './types.js';

/** One master of the cluster after the run: INFO memory used_memory and DBSIZE. */
export type MasterFigures = { node: string; usedMemoryBytes: number; keys: number };

/** The same scenarios run again on a Redis Cluster with several service processes. */
export type ClusterRun = {
  nodes: string[];
  processes: string[];
  scenarios: ScenarioResult[];
  masters: MasterFigures[];
  /** Single Redis vs cluster, figure by figure (same run). */
  comparison: ComparisonRow[];
  /** Warnings and errors the cluster's service processes logged. */
  serverProblems: string[];
  /** Why the cluster run stopped, when it could not start or finish. */
  error?: string;
};

export type ComparisonRow = { figure: string; unit: string; single?: number; cluster?: number };

/** used_memory and DBSIZE of every master. */
export async function readMasters(nodes: string[]): Promise<MasterFigures[]> {
  return (await readMasterStats(nodes)).map(({ node, usedMemoryBytes, keys }) => ({ node, usedMemoryBytes, keys }));
}

const throughputOf = (scenarios: ScenarioResult[], scenario: string, phase: string, operation: string) =>
  scenarios.find((s) => s.name === scenario)?.phases.find((p) => p.name === phase)?.operations[operation]?.throughput;

const figureOf = (scenarios: ScenarioResult[], scenario: string, figure: string) => {
  const value = scenarios.find((s) => s.name === scenario)?.figures[figure];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

/** The headline figures of both runs: swipes/s, push latency, Redis memory. */
export function compare(single: ScenarioResult[], cluster: ScenarioResult[], singleUsedMemory: number | undefined, masters: MasterFigures[]): ComparisonRow[] {
  const rows: ComparisonRow[] = [];
  const both = (figure: string, unit: string, read: (scenarios: ScenarioResult[]) => number | undefined) => {
    const row = { figure, unit, single: read(single), cluster: read(cluster) };
    if (row.single !== undefined || row.cluster !== undefined) rows.push(row);
  };
  both('swipes, pass only', 'req/s', (s) => throughputOf(s, 'swipes', 'pass only', 'POST like'));
  both('swipes, mixed (matches form)', 'req/s', (s) => throughputOf(s, 'swipes', 'mixed', 'POST like'));
  both('swipes, pass only, wrk', 'req/s', (s) => throughputOf(s, 'swipes', 'pass only (wrk)', 'POST like'));
  both('swipes, mixed, wrk', 'req/s', (s) => throughputOf(s, 'swipes', 'mixed (wrk)', 'POST like'));
  // What a core buys: pass swipes per second per core of CPU the service's processes and Redis nodes used.
  both('swipes, pass only, per core (service + Redis CPU)', 'req/s', (s) => figureOf(s, 'swipes', 'pass_swipes_per_core'));
  both('swipes, pass only, wrk, per core (service + Redis CPU)', 'req/s', (s) => figureOf(s, 'swipes', 'wrk_pass_swipes_per_core'));
  both('push-latency background load', 'req/s', (s) => figureOf(s, 'agent-life', 'background_rate_req_s'));
  for (const condition of ['idle', 'loaded'] as const) {
    for (const [event, key] of [
      ['match.created', 'match'],
      ['message.created', 'message'],
    ] as const) {
      both(`push ${event} ${condition} p50`, 'ms', (s) => figureOf(s, 'agent-life', `push_${key}_${condition}_p50_ms`));
      both(`push ${event} ${condition} p99`, 'ms', (s) => figureOf(s, 'agent-life', `push_${key}_${condition}_p99_ms`));
    }
  }
  const memories = masters.map((m) => m.usedMemoryBytes).filter(Number.isFinite);
  if (singleUsedMemory !== undefined || memories.length > 0) {
    // Not the same work: the single half also ran the swipe scenario's memory measurement.
    rows.push({
      figure: 'Redis used_memory after the run',
      unit: 'bytes',
      single: singleUsedMemory,
      cluster: memories.length > 0 ? memories.reduce((a, b) => a + b, 0) : undefined,
    });
  }
  for (const master of masters) rows.push({ figure: `  master ${master.node} (${master.keys} keys)`, unit: 'bytes', cluster: master.usedMemoryBytes });
  return rows;
}
