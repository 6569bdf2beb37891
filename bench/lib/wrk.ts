import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { spawnTracked } from './children.js';
import type { LatencySummary } from './histogram.js';
import type { OperationStats } from './recorder.js';
import type { WrkKind, WrkScript } from './wrk-script.js';

/**
 * wrk, the C load generator, as a second generator beside the bench's own: the same requests from a process
 * that costs far less CPU per request, so that a figure that does not move between the two is the server's.
 */

/** wrk's path when it is on PATH, else undefined. */
export function findWrk(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'wrk');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export type WrkErrors = { connect: number; read: number; write: number; status: number; timeout: number };

export type WrkRun = {
  requests: number;
  seconds: number;
  /** Completed requests per second (whatever their status, as the Node generator counts them). */
  throughput: number;
  latency: LatencySummary;
  errors: WrkErrors;
  /** CPU seconds wrk itself used during the load (from its /proc/<pid>/stat), undefined if unreadable. */
  cpuSeconds?: number;
  threads: number;
  connections: number;
};

export type WrkLoad = {
  wrk: string;
  script: WrkScript;
  agentsFile: string;
  host: string;
  ports: readonly number[];
  kind: WrkKind;
  threads: number;
  connections: number;
  durationMs: number;
};

/** Runs wrk once to its end and returns what its done() printed. */
export async function runWrk(load: WrkLoad): Promise<WrkRun> {
  // A thread talks to one process: with several processes, at least one thread each.
  const threads = Math.max(load.threads, load.ports.length);
  const connections = Math.max(load.connections, threads);
  const seconds = Math.max(1, Math.round(load.durationMs / 1000));
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', load.script.path];
  args.push(`http://${load.host}:${load.ports[0]}/`, '--', load.agentsFile, load.kind, String(threads));
  const child = spawnTracked(load.wrk, args, { ...process.env, BENCH_WRK_PORTS: load.ports.length > 1 ? load.ports.join(',') : '' });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), load.durationMs + 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(killer);
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_RESULT '));
  if (!line) throw new Error(`wrk exited (${code}) without a result: ${(stderr || stdout).trim().slice(0, 400)}`);
  return parseWrkResult(line.slice('WRK_RESULT '.length), threads, connections);
}

type RawResult = {
  requests: number;
  duration_us: number;
  errors: WrkErrors;
  latency_us: { min: number; mean: number; max: number; p50: number; p90: number; p95: number; p99: number; p999: number };
  cpu_seconds: number;
};

export function parseWrkResult(json: string, threads: number, connections: number): WrkRun {
  const raw = JSON.parse(json) as RawResult;
  const seconds = raw.duration_us / 1e6;
  const ms = (us: number) => us / 1000;
  const l = raw.latency_us;
  return {
    requests: raw.requests,
    seconds,
    throughput: seconds > 0 ? raw.requests / seconds : 0,
    latency: { count: raw.requests, mean: ms(l.mean), p50: ms(l.p50), p95: ms(l.p95), p99: ms(l.p99), p999: ms(l.p999), max: ms(l.max) },
    errors: raw.errors,
    cpuSeconds: raw.cpu_seconds >= 0 ? raw.cpu_seconds : undefined,
    threads,
    connections,
  };
}

/** Requests that did not complete well: a status above 399 and every socket error or timeout. */
export function wrkFailures(run: WrkRun): number {
  const e = run.errors;
  return e.status + e.connect + e.read + e.write + e.timeout;
}

/**
 * A wrk run as the report's operation figures. Outcomes: `<400` for the completed requests under 400,
 * `≥400` for the others (wrk does not tell which status), `net:<kind>` and `timeout` for the rest. No latency
 * distribution or timeline: wrk gives percentiles only.
 */
export function wrkOperation(run: WrkRun): OperationStats {
  const outcomes: Record<string, number> = { '<400': run.requests - run.errors.status };
  if (run.errors.status > 0) outcomes['≥400'] = run.errors.status;
  for (const kind of ['connect', 'read', 'write'] as const) if (run.errors[kind] > 0) outcomes[`net:${kind}`] = run.errors[kind];
  if (run.errors.timeout > 0) outcomes.timeout = run.errors.timeout;
  return { count: run.requests, throughput: run.throughput, latency: run.latency, outcomes, timeline: [], buckets: [] };
}
