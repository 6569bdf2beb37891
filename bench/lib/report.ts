import { cpus, totalmem, release } from 'node:os';
import type { ClusterRun } from './cluster-comparison.js';
import type { CompareRun } from './compare-table.js';
import type { OperationStats } from './recorder.js';
import { isSuccess } from './recorder.js';
import type { BenchOptions, Ceilings, PhaseResult, ScenarioResult, WrkCeiling } from './types.js';

export type BenchReport = {
  version: 1;
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  command: string;
  machine: { cpus: number; cpuModel: string; memoryBytes: number; node: string; os: string; redis?: string };
  target: { kind: 'embedded' | 'url' | 'cluster'; baseUrl: string; redis?: string };
  options: BenchOptions;
  ceilings: Ceilings;
  scenarios: ScenarioResult[];
  /** Warnings and errors the server logged during the run. */
  serverProblems: string[];
  /** With --cluster: the same scenarios on a Redis Cluster with two service processes, and the comparison. */
  cluster?: ClusterRun;
  /** With --compare: the ref's and the work tree's figures, round by round, and tree / ref. */
  compare?: CompareRun;
};

export function machineInfo(redisVersion?: string): BenchReport['machine'] {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
    os: `${process.platform} ${release()}`,
    redis: redisVersion,
  };
}

/** One line of the summary table: an operation of a phase of a scenario. */
export type Row = {
  scenario: string;
  phase: string;
  operation: string;
  count: number;
  throughput: number;
  /** Throughput as a fraction of the trivial uWS route's (under the same generator) and of Redis PING's. */
  vsHello?: number;
  vsRedis?: number;
  p50: number;
  p95: number;
  p99: number;
  failures: string;
  rssBytes?: number;
  eventLoopDelayP99Ms?: number;
  cpu?: { server?: number; redis?: number; generator?: number; machine?: number };
};

export function failureSummary(outcomes: Record<string, number>): string {
  const bad = Object.entries(outcomes).filter(([outcome]) => !isSuccess(outcome));
  return bad.length === 0 ? '0' : bad.map(([outcome, n]) => `${outcome.length > 24 ? `${outcome.slice(0, 23)}…` : outcome}×${n}`).join(' ');
}

/** The uWS route measured by wrk, when it was. */
export function wrkHello(ceilings: Ceilings): WrkCeiling | undefined {
  return ceilings.helloWrk && 'throughput' in ceilings.helloWrk ? ceilings.helloWrk : undefined;
}

export function rowsOf(scenario: ScenarioResult, ceilings: Ceilings): Row[] {
  const rows: Row[] = [];
  for (const phase of scenario.phases) {
    for (const [operation, stats] of Object.entries(phase.operations)) rows.push(row(scenario, phase, operation, stats, ceilings));
  }
  return rows;
}

function row(scenario: ScenarioResult, phase: PhaseResult, operation: string, stats: OperationStats, ceilings: Ceilings): Row {
  // A wrk phase is compared with the uWS route under wrk, a Node generator's phase with it under the Node generator.
  const hello = phase.generator === 'wrk' ? wrkHello(ceilings) : ceilings.hello;
  return {
    scenario: scenario.name,
    phase: phase.name,
    operation,
    count: stats.count,
    throughput: stats.throughput,
    vsHello: hello && Number.isFinite(stats.throughput) ? stats.throughput / hello.throughput : undefined,
    vsRedis: ceilings.redis && Number.isFinite(stats.throughput) ? stats.throughput / ceilings.redis.throughput : undefined,
    p50: stats.latency.p50,
    p95: stats.latency.p95,
    p99: stats.latency.p99,
    failures: failureSummary(stats.outcomes),
    rssBytes: phase.window?.rss?.max,
    eventLoopDelayP99Ms: phase.window?.eventLoopDelayP99MaxMs,
    cpu: phase.window?.cpu,
  };
}
