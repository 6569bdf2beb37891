import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviations, renderBalance, worstDeviation } from '../../bench/lib/balance-table.js';
import { parseCli, UsageError } from '../../bench/lib/cli.js';
import { compare } from '../../bench/lib/cluster-comparison.js';
import { runLoad } from '../../bench/lib/http-load.js';
import { perCore } from '../../bench/lib/monitor.js';
import type { ScenarioResult } from '../../bench/lib/types.js';

describe('bench on several service processes', () => {
  const servers: Server[] = [];
  const hits = new Map<number, number>();

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const server = createServer((_req, res) => {
        const port = (server.address() as AddressInfo).port;
        hits.set(port, (hits.get(port) ?? 0) + 1);
        res.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
    }
  });
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it('spreads the clients of one load over every port it is given', async () => {
    const ports = servers.map((server) => (server.address() as AddressInfo).port);
    let clients = 0;
    const recorder = await runLoad({
      host: '127.0.0.1',
      port: ports[0]!,
      ports,
      connections: 4,
      durationMs: 5_000,
      client: () => {
        if (clients++ >= 8) return null;
        let sent = 0;
        return { next: () => (sent++ < 10 ? { method: 'GET', path: '/', tag: 'GET /' } : null) };
      },
    });
    expect(recorder.stats('GET /').outcomes).toEqual({ 200: 80 });
    expect(ports.map((port) => hits.get(port))).toEqual([40, 40]);
  });

  it('takes --cluster with swipes and agent-life by default, and never with --url', () => {
    const options = parseCli(['--cluster'], ['swipes', 'agent-life', 'auth'], ['auth', 'swipes', 'agent-life'])!;
    expect(options.cluster).toBe(true);
    expect(options.scenarios).toEqual(['swipes', 'agent-life']);
    expect(parseCli(['--cluster', 'auth'], ['swipes', 'agent-life', 'auth'], ['auth'])!.scenarios).toEqual(['auth']);
    expect(parseCli([], ['auth'], ['auth'])!.cluster).toBe(false);
    expect(() => parseCli(['--cluster', '--url', 'http://127.0.0.1:8080'], ['auth'], ['auth'])).toThrow(UsageError);
    // The cluster's masters run alone unless replicas are asked for.
    expect(options.clusterReplicas).toBe(0);
    expect(parseCli(['--cluster', '--cluster-replicas', '1'], ['auth'], ['auth'])!.clusterReplicas).toBe(1);
    expect(() => parseCli(['--cluster-replicas', '1'], ['auth'], ['auth'])).toThrow(/--cluster too/);
  });

  it('puts the single-node and cluster figures of one run side by side', () => {
    const run = (passes: number, pushP50: number): ScenarioResult[] => [
      {
        name: 'swipes',
        title: '',
        notes: [],
        figures: {},
        phases: [{ name: 'pass only', description: '', operations: { 'POST like': { throughput: passes } as never } }],
      },
      { name: 'agent-life', title: '', notes: [], figures: { push_match_idle_p50_ms: pushP50 }, phases: [] },
    ];
    const rows = compare(run(1000, 20), run(800, 30), 5_000_000, [
      { node: '127.0.0.1:1', usedMemoryBytes: 2_000_000, keys: 10 },
      { node: '127.0.0.1:2', usedMemoryBytes: 3_000_000, keys: 12 },
    ]);
    expect(rows).toContainEqual({ figure: 'swipes, pass only', unit: 'req/s', single: 1000, cluster: 800 });
    expect(rows).toContainEqual({ figure: 'push match.created idle p50', unit: 'ms', single: 20, cluster: 30 });
    expect(rows).toContainEqual({ figure: 'Redis used_memory after the run', unit: 'bytes', single: 5_000_000, cluster: 5_000_000 });
    expect(rows.filter((row) => row.figure.includes('master'))).toHaveLength(2);
  });

  it('gives pass swipes per core of the service and its Redis, single and cluster side by side', () => {
    // 4,000 swipes/s while every service process used 120 % of a core and every Redis node 80 %: 2,000 a core.
    const window = { seconds: 5, cpu: { services: 120, redises: 80 }, serverRoutes: {}, samples: [] };
    expect(perCore(4000, window)).toBe(2000);
    expect(perCore(4000, { ...window, cpu: { services: 120 } })).toBeUndefined();
    expect(perCore(undefined, window)).toBeUndefined();
    const run = (perCoreFigure: number): ScenarioResult[] => [
      { name: 'swipes', title: '', notes: [], figures: { pass_swipes_per_core: perCoreFigure, wrk_pass_swipes_per_core: perCoreFigure * 2 }, phases: [] },
    ];
    const rows = compare(run(9000), run(6000), undefined, []);
    expect(rows).toContainEqual({ figure: 'swipes, pass only, per core (service + Redis CPU)', unit: 'req/s', single: 9000, cluster: 6000 });
    expect(rows).toContainEqual({ figure: 'swipes, pass only, wrk, per core (service + Redis CPU)', unit: 'req/s', single: 18000, cluster: 12000 });
  });

  it('gives each master its deviation from the mean and finds the largest', () => {
    expect(deviations([90, 100, 110])).toEqual([-0.1, 0, 0.1]);
    const columns = [
      { name: 'keys', values: [100, 100, 100] },
      { name: 'ops', values: [70, 100, 130] },
    ];
    expect(worstDeviation(columns)).toEqual({ column: 'ops', deviation: 0.3 });
    const table = renderBalance(['a:1', 'b:2', 'c:3'], columns);
    expect(table).toContain('-30.0%');
    expect(table).toContain('+30.0%');
  });
});
