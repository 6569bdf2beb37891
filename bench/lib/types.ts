import type { Redis } from 'ioredis';
import type { JsonClient } from '../../src/client/json-client.js';
import type { LoopbackAddresses } from './loopback.js';
import type { Monitor, WindowStats } from './monitor.js';
import type { Population } from './population.js';
import type { Progress } from './progress.js';
import type { OperationStats } from './recorder.js';
import type { Target } from './target.js';

export type BenchOptions = {
  url?: string;
  redisUrl?: string;
  scenarios: string[];
  /** Seconds each measured phase runs. */
  duration: number;
  /** Seconds of the mixed soak. */
  soak: number;
  warmup: number;
  connections: number;
  agents: number;
  registrations: number;
  pairs: number;
  spectators: number;
  wsProcesses: number;
  /** What the spectator fleet speaks WebSocket with: the lean raw-socket client, or the ws library. */
  spectatorClient: 'lean' | 'ws';
  /** The spectator scenario also measures a plain Socket.IO broadcast server with the same fleet. */
  socketioComparison: boolean;
  backgroundRate: number;
  seed: number;
  /** Seeded agents of the discovery-scale scenario. */
  scaleAgents: number;
  maxRequests: number;
  maxMinutes: number;
  out: string;
  /** Then the same scenarios again on a three-master Redis Cluster with two service processes. */
  cluster: boolean;
  /** An earlier run's JSON to render instead of running. */
  report?: string;
};

export type Ceilings = {
  /** The trivial uWS route in its own process, loaded by the same generator. */
  hello?: { throughput: number; latency: OperationStats['latency']; cpu: { server?: number; generator: number }; connections: number };
  /** The service's own GET /healthz (the adapter's cost with no store access). */
  healthz?: { throughput: number; latency: OperationStats['latency'] };
  /** Redis PING: one connection in lock-step (round trip), and many connections with one command in flight each. */
  redis?: { source: string; roundTrip: OperationStats['latency']; throughput: number; connections: number };
};

/** One measured stretch of a scenario. */
export type PhaseResult = {
  name: string;
  description: string;
  connections?: number;
  operations: Record<string, OperationStats>;
  window?: WindowStats;
};

export type ScenarioResult = {
  name: string;
  title: string;
  /** True when part of the population was written straight into Redis rather than registered through the API. */
  seeded?: boolean;
  skipped?: string;
  error?: string;
  notes: string[];
  /** Headline figures (bytes per swipe, push latency, …), name → value. */
  figures: Record<string, number | string>;
  phases: PhaseResult[];
  seconds?: number;
};

export type BenchContext = {
  options: BenchOptions;
  target: Target;
  /** The target's single Redis, when known (none on a cluster: per-master figures are read after the run). */
  redis?: Redis;
  api: JsonClient;
  monitor: Monitor;
  addresses: LoopbackAddresses;
  population: Population;
  progress: Progress;
  ceilings: Ceilings;
  /** Measures the trivial uWS route again, now (next to a scenario's own load, as machine load drifts). */
  helloNow(durationMs: number): Promise<number>;
  runId: string;
  /** The API's routes (from its OpenAPI document), to skip scenarios whose endpoints are missing. */
  hasRoute(method: string, path: string): boolean;
  /** Resolves when the run must end (the overall time bound, or Ctrl-C). */
  aborted(): boolean;
};

export type Scenario = {
  name: string;
  title: string;
  summary: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
};

export function emptyResult(scenario: Pick<Scenario, 'name' | 'title'>): ScenarioResult {
  return { name: scenario.name, title: scenario.title, notes: [], figures: {}, phases: [] };
}
