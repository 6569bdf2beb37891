import type { ChildProcess } from 'node:child_process';
import { nextMessage as nextChildMessage, spawnTs, stopChild } from './children.js';
import { Histogram, type HistogramSnapshot } from './histogram.js';
import type { SpectatorClientKind, SpectatorProtocol } from './spectator-clients.js';

type GroupReport = { deliveries?: HistogramSnapshot; lastByNonce: Record<string, number>; countByNonce: Record<string, number> };
type ChildReport = { byGroup: Record<string, GroupReport>; frames: number; open: number; closes: Record<string, number>; cpuSeconds: number; sample?: string };

export type FleetReport = {
  /** Per group: every delivery's latency, and per event the time until the last socket had it. */
  groups: Record<string, { deliveries: Histogram; reachAll: Histogram; delivered: number; lastArrivalNs: number }>;
  open: number;
  closes: Record<string, number>;
  cpuSeconds: number;
  /** One event frame as a socket read it (the first that carried a nonce). */
  sample?: string;
};

export type FleetConnectOptions = { protocol: SpectatorProtocol; client: SpectatorClientKind };

const nextMessage = <T>(child: ChildProcess, type: string, timeoutMs: number) => nextChildMessage<T>(child, type, timeoutMs, 'a socket-fleet process');

/** Child processes holding spectator sockets (bench/lib/spectator-fleet.ts), driven over IPC. */
export class SocketFleet {
  /** CPU seconds the fleet's processes have used, as of their latest answer. */
  private readonly cpu = new Map<ChildProcess, number>();

  private constructor(
    private readonly children: ChildProcess[],
    private readonly onCpu?: (seconds: number) => void,
  ) {}

  /** How many client processes. */
  get size(): number {
    return this.children.length;
  }

  get cpuSeconds(): number {
    let total = 0;
    for (const seconds of this.cpu.values()) total += seconds;
    return total;
  }

  /** `onCpu` is told the fleet's CPU seconds in all each time they are read anew. */
  static async start(processes: number, onCpu?: (seconds: number) => void): Promise<SocketFleet> {
    const children = Array.from({ length: processes }, () => spawnTs('bench/lib/spectator-fleet.ts', [], process.env, true));
    for (const child of children) {
      child.stdout!.resume();
      child.stderr!.resume();
    }
    await Promise.all(children.map((child) => nextMessage(child, 'ready', 20_000)));
    return new SocketFleet(children, onCpu);
  }

  /** Opens `total` sockets to `url`, spread over the children and over `addresses`. */
  async connect(url: string, total: number, addresses: string[], options: FleetConnectOptions, onProgress: (connected: number, failed: number) => void) {
    const per = Math.ceil(total / this.children.length);
    const progress = new Map<ChildProcess, { connected: number; failed: number }>();
    const results = await Promise.all(
      this.children.map((child, i) => {
        const count = Math.max(0, Math.min(per, total - i * per));
        const mine = addresses.filter((_, j) => j % this.children.length === i);
        const onMessage = (message: { type: string; connected: number; failed: number }) => {
          if (message.type !== 'progress') return;
          progress.set(child, message);
          let connected = 0;
          let failed = 0;
          for (const p of progress.values()) {
            connected += p.connected;
            failed += p.failed;
          }
          onProgress(connected, failed);
        };
        child.on('message', onMessage);
        child.send({ cmd: 'connect', url, count, addresses: mine.length > 0 ? mine : addresses, concurrency: 64, ...options });
        return nextMessage<{ connected: number; failed: number; firstError?: string; ms: number; opening: HistogramSnapshot }>(
          child,
          'connected',
          180_000,
        ).finally(() => child.off('message', onMessage));
      }),
    );
    const opening = new Histogram();
    for (const r of results) opening.merge(r.opening);
    return {
      connected: results.reduce((n, r) => n + r.connected, 0),
      failed: results.reduce((n, r) => n + r.failed, 0),
      ms: Math.max(...results.map((r) => r.ms)),
      firstError: results.find((r) => r.firstError)?.firstError,
      opening,
    };
  }

  /** Frames read so far by all the sockets (also refreshes cpuSeconds). */
  async frames(): Promise<number> {
    const counts = await Promise.all(
      this.children.map(async (child) => {
        child.send({ cmd: 'frames' });
        const answer = await nextMessage<{ frames: number; cpuSeconds: number }>(child, 'frames', 10_000);
        this.cpu.set(child, answer.cpuSeconds);
        return answer;
      }),
    );
    this.onCpu?.(this.cpuSeconds);
    return counts.reduce((n, c) => n + c.frames, 0);
  }

  async report(sent: Record<string, number>, groups: Record<string, string>): Promise<FleetReport> {
    const reports = await Promise.all(
      this.children.map((child) => {
        child.send({ cmd: 'report', sent, groups });
        return nextMessage<ChildReport>(child, 'report', 60_000);
      }),
    );
    const out: FleetReport = { groups: {}, open: 0, closes: {}, cpuSeconds: 0 };
    const last: Record<string, Record<string, number>> = {};
    for (const [i, report] of reports.entries()) {
      out.open += report.open;
      out.cpuSeconds += report.cpuSeconds;
      this.cpu.set(this.children[i]!, report.cpuSeconds);
      out.sample ??= report.sample;
      for (const [code, n] of Object.entries(report.closes)) out.closes[code] = (out.closes[code] ?? 0) + n;
      for (const [group, g] of Object.entries(report.byGroup)) {
        const entry = (out.groups[group] ??= { deliveries: new Histogram(), reachAll: new Histogram(), delivered: 0, lastArrivalNs: 0 });
        if (g.deliveries) entry.deliveries.merge(g.deliveries);
        const lastOfGroup = (last[group] ??= {});
        for (const [nonce, at] of Object.entries(g.lastByNonce)) {
          lastOfGroup[nonce] = Math.max(lastOfGroup[nonce] ?? 0, at);
          entry.lastArrivalNs = Math.max(entry.lastArrivalNs, at);
        }
        for (const n of Object.values(g.countByNonce)) entry.delivered += n;
      }
    }
    this.onCpu?.(this.cpuSeconds);
    for (const [group, byNonce] of Object.entries(last)) {
      for (const [nonce, at] of Object.entries(byNonce)) if (at > 0) out.groups[group]!.reachAll.record((at - sent[nonce]!) / 1e6);
    }
    return out;
  }

  async stop() {
    for (const child of this.children) if (child.connected) child.send({ cmd: 'close' });
    await Promise.all(this.children.map((child) => stopChild(child, 5_000)));
  }
}
