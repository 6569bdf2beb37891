import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../bench/lib/cli.js';
import { failureSummary } from '../../bench/lib/report.js';
import { findWrk, parseWrkResult, runWrk, wrkOperation } from '../../bench/lib/wrk.js';
import { WrkScript } from '../../bench/lib/wrk-script.js';

const wrk = findWrk();

describe('bench: wrk as a second load generator', () => {
  it('reads the line its Lua done() prints, in milliseconds, and counts statuses of 400 or more as failures', () => {
    const run = parseWrkResult(
      '{"requests":1000,"duration_us":2000000,"bytes":1,"errors":{"connect":0,"read":1,"write":0,"status":7,"timeout":2},' +
        '"latency_us":{"min":100,"mean":1500.5,"max":9000,"p50":1200,"p90":2000,"p95":2500,"p99":4000,"p999":8000},"cpu_seconds":0.25}',
      1,
      50,
    );
    expect(run.throughput).toBe(500);
    expect(run.latency).toMatchObject({ p50: 1.2, p99: 4, max: 9, count: 1000 });
    expect(run.cpuSeconds).toBe(0.25);
    const operation = wrkOperation(run);
    expect(operation.outcomes).toEqual({ '<400': 993, '≥400': 7, 'net:read': 1, timeout: 2 });
    expect(failureSummary(operation.outcomes)).toBe('≥400×7 net:read×1 timeout×2');
  });

  it('takes the background fraction and the wrk options, and leaves the background rate to the fraction unless given', () => {
    const options = parseCli([], ['swipes'], ['swipes'])!;
    expect(options).toMatchObject({ backgroundRate: undefined, backgroundFraction: 0.5, wrk: true, wrkThreads: 1, wrkConnections: 50 });
    expect(parseCli(['--background-rate', '0', '--background-fraction', '0.25', '--no-wrk', '--wrk-connections', '8'], ['swipes'], ['swipes'])).toMatchObject({
      backgroundRate: 0,
      backgroundFraction: 0.25,
      wrk: false,
      wrkConnections: 8,
    });
  });

  // CI installs wrk (.ci/run), so there a missing wrk fails instead of skipping.
  describe.skipIf(!wrk && !process.env.CI)('with wrk on PATH', () => {
    let server: Server;
    const seen: Array<{ method?: string; url?: string; auth?: string }> = [];
    const script = WrkScript.create();

    beforeAll(async () => {
      server = createServer((req, res) => {
        if (seen.length < 10_000) seen.push({ method: req.method, url: req.url, auth: req.headers.authorization });
        res.end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      script.remove();
      await new Promise((resolve) => server.close(resolve));
    });

    it('sends each agent its own bearer token and targets, the kinds of the chosen mix', async () => {
      const agents = [
        { token: 'token-a', targets: [2, 3] },
        { token: 'token-b', targets: [1, 3] },
        { token: 'token-c', targets: [1, 2] },
      ];
      const run = await runWrk({
        wrk: wrk!,
        script,
        agentsFile: script.writeAgents(agents),
        host: '127.0.0.1',
        ports: [(server.address() as AddressInfo).port],
        kind: 'mixed',
        threads: 1,
        connections: 2,
        durationMs: 1_000,
      });
      expect(run.requests).toBeGreaterThan(0);
      expect(run.errors.status).toBe(0);
      expect(seen.length).toBeGreaterThan(0);
      const allowed = new Map([
        ['Bearer token-a', [2, 3]],
        ['Bearer token-b', [1, 3]],
        ['Bearer token-c', [1, 2]],
      ]);
      const kinds = new Set<string>();
      for (const request of seen) {
        expect(request.method).toBe('POST');
        const match = /^\/api\/v1\/likes\/(\d+)\?kind=(like|pass|super_like)$/.exec(request.url ?? '');
        expect(match).not.toBeNull();
        expect(allowed.get(request.auth ?? '')).toContain(Number(match![1]));
        kinds.add(match![2]!);
      }
      expect(new Set(seen.map((request) => request.auth)).size).toBe(3);
      if (seen.length >= 200) expect(kinds).toEqual(new Set(['like', 'pass', 'super_like']));
    });
  });
});
