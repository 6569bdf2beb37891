import type { Redis } from 'ioredis';
import type { JsonClient } from '../../src/clients/json-client.js';
import type { LoopbackAddresses } from './loopback.js';
import type { Monitor, WindowStats } from './monitor.js';
import type { Population } from './population.js';
import type { Progress } from './progress.js';
import type { OperationStats } from './recorder.js';
import type { Target } from './target.js';
import type { WrkScript } from './wrk-script.js';

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
  /** Requests/s of the background load under which push latency is measured again; undefined: a fraction of the swipe capacity. */
  backgroundRate?: number;
  /** Background load as a fraction of the pass-only swipe capacity measured in the same run (when --background-rate is not given). */
  backgroundFraction: number;
  /** Use wrk (when it is on PATH) beside the Node generator for the ceiling and the swipes. */
  wrk: boolean;
  wrkThreads: number;
  wrkConnections: number;
  /** What the spectator fleet speaks WebSocket with: the lean raw-socket client, or the ws library. */
  spectatorClient: 'lean' | 'ws';
  /** The spectator scenario also measures a plain Socket.IO broadcast server with the same fleet. */
  socketioComparison: boolean;
  seed: number;
  /** Seeded agents of the discovery-scale scenario. */
  scaleAgents: number;
  maxRequests: number;
  maxMinutes: number;
  out: string;
  /** Then the same scenarios again on a three-master Redis Cluster with two service processes. */
  cluster: boolean;
  /** Replicas of each master of that cluster (0: masters only). */
  clusterReplicas: number;
  /** An earlier run's JSON to render instead of running. */
  report?: string;
  /** A git ref whose service is measured in turns with the work tree's (swipes, messages, feed). */
  compare?: string;
  /** Rounds of --compare: each measures the ref, then the work tree. */
  compareRounds: number;
  /** --replica-ack: the compare phases on the work tree with REDIS_MIN_REPLICAS_ACK=0 ("ref") and =1 ("tree"), each Redis with a replica. */
  replicaAck: boolean;
};

export type Ceilings = {
  /** The trivial uWS route in its own process, loaded by the same generator. */
  hello?: { throughput: number; latency: OperationStats['latency']; cpu: { server?: number; generator: number; machine?: number }; connections: number };
  /**
   * The same route loaded by wrk with the Lua script of the swipes (synthetic tokens and ids of the same shape);
   * `missing` says why it was not measured.
   */
  helloWrk?: WrkCeiling | { missing: string };
  /** The service's own GET /healthz (the adapter's cost with no store access). */
  healthz?: { throughput: number; latency: OperationStats['latency'] };
  /** Redis PING: one connection in lock-step (round trip), and many connections with one command in flight each. */
  redis?: { source: string; roundTrip: OperationStats['latency']; throughput: number; connections: number };
};

/** A wrk run of the trivial uWS route. CPU in percent of one core and in seconds, over the same window. */
export type WrkCeiling = {
  throughput: number;
  latency: OperationStats['latency'];
  connections: number;
  threads: number;
  /** Requests answered 400 or more, socket errors and timeouts. */
  failures: number;
  seconds: number;
  /** `server` is the uWS route's process; `machine` every process on the machine. */
  cpu: { server?: number; wrk?: number; machine?: number };
  cpuSeconds: { server?: number; wrk?: number; machine?: number };
};

/** One measured stretch of a scenario. */
export type PhaseResult = {
  name: string;
  description: string;
  connections?: number;
  operations: Record<string, OperationStats>;
  window?: WindowStats;
  /** Who sent the load: the bench's own Node generator (default) or wrk (then window.cpu.generator is wrk's CPU). */
  generator?: 'node' | 'wrk';
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
  /** The same with wrk and the given agents file (the swipes' own), or undefined without wrk. */
  helloWrkNow(durationMs: number, agentsFile: string): Promise<WrkCeiling | undefined>;
  /** wrk and its Lua script when wrk is used in this run; `missing` says why not. */
  wrk: { path: string; script: WrkScript } | { missing: string };
  /** Figures one scenario measured for a later one, on this target only. */
  facts: RunFacts;
  runId: string;
  /** The API's routes (from its OpenAPI document), to skip scenarios whose endpoints are missing. */
  hasRoute(method: string, path: string): boolean;
  /** Resolves when the run must end (the overall time bound, or Ctrl-C). */
  aborted(): boolean;
};

export type RunFacts = {
  /** The highest pass-only swipe throughput measured by the swipes scenario without errors, and by which generator. */
  passSwipeCapacity?: { reqPerSecond: number; source: string };
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
