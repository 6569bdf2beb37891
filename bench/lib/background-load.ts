import type { ChildProcess } from 'node:child_process';
import { processCpuSeconds, spawnTs, stopChild, waitForLine } from './children.js';
import type { BenchAgent } from './population.js';
import type { OperationStats } from './recorder.js';
import type { BenchContext } from './types.js';

export type BackgroundResult = { seconds: number; operations: Record<string, OperationStats> };

/** Total requests per second of a background result, every operation together. */
export const totalThroughput = (result: BackgroundResult) => Object.values(result.operations).reduce((sum, op) => sum + op.throughput, 0);

/**
 * Pass-only swipes by `agents`, from a child process (lib/background-load-child.ts), paced to `ratePerSecond`
 * (0: unpaced) for at most `durationMs` or until stop().
 */
export class BackgroundLoad {
  private lastCpu = 0;

  private constructor(
    private readonly child: ChildProcess,
    private readonly result: Promise<BackgroundResult>,
  ) {}

  static start(
    ctx: BenchContext,
    agents: BenchAgent[],
    options: { ratePerSecond: number; connections: number; durationMs: number; warmupMs?: number },
  ): BackgroundLoad {
    const config = {
      host: ctx.target.host,
      ports: ctx.target.ports,
      connections: options.connections,
      ratePerSecond: options.ratePerSecond,
      durationMs: options.durationMs,
      warmupMs: options.warmupMs ?? 0,
      maxRequests: ctx.options.maxRequests,
      agents: agents.map(({ id, token }) => ({ id, token })),
      addresses: Array.from({ length: options.connections }, () => ctx.addresses.next()),
    };
    const child = spawnTs('bench/lib/background-load-child.ts', [JSON.stringify(config)]);
    const result = waitForLine(
      child,
      (line) => (line.startsWith('RESULT ') ? (JSON.parse(line.slice('RESULT '.length)) as BackgroundResult) : undefined),
      options.durationMs + 60_000,
      'the background load',
    );
    result.catch(() => {});
    return new BackgroundLoad(child, result);
  }

  /** CPU seconds the child used since the previous call (the monitor counts it as the generator's). */
  cpuSinceLastCall(): number {
    const now = processCpuSeconds(this.child.pid) ?? this.lastCpu;
    const delta = now - this.lastCpu;
    this.lastCpu = now;
    return delta;
  }

  /** Resolves when the load has run its course. */
  finished(): Promise<BackgroundResult> {
    return this.result;
  }

  /** Stops the load and returns what it did. */
  async stop(): Promise<BackgroundResult> {
    this.child.kill('SIGTERM');
    try {
      return await this.result;
    } finally {
      await stopChild(this.child, 5_000);
    }
  }
}
