import { formatBytes, formatCount, formatMs, formatPercent, formatRatio } from './format.js';
import { rowsOf, type BenchReport } from './report.js';
import type { ClusterRun } from './cluster-comparison.js';
import { formatFigure, roundFigure } from './report-table.js';
import { distributionPoints, escapeHtml as e, lineChart } from './svg-chart.js';
import type { PhaseResult, ScenarioResult } from './types.js';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1400px;color:#111;padding:0 16px}
.wide{overflow-x:auto}.wide table{font-size:13px}td.wrap{white-space:normal;max-width:220px;text-align:left}
h1{font-size:22px}h2{font-size:18px;margin-top:36px;border-bottom:1px solid #ddd}h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 7px;text-align:right;white-space:nowrap}
td:first-child,td:nth-child(2),th,td.l{text-align:left}.seeded{background:#fde68a;padding:1px 6px;border-radius:4px;font-size:12px}
.charts{display:flex;flex-wrap:wrap;gap:12px}svg{background:#fafafa;border:1px solid #eee}
svg .t{font-size:13px;font-weight:600}svg .a{font-size:11px;fill:#333}svg .g{stroke:#e5e5e5}svg .m{stroke:#999;stroke-dasharray:3 3}
.note{color:#555}code{background:#f3f3f3;padding:1px 4px}`;

/** The self-contained HTML report: tables and inline SVG charts, no scripts. */
export function renderHtml(report: BenchReport): string {
  const { ceilings } = report;
  const parts: string[] = [];
  parts.push(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench ${e(report.startedAt)}</title><style>${STYLE}</style></head><body>`);
  parts.push(`<h1>Load bench — ${e(report.startedAt)}</h1>`);
  parts.push(
    `<p>Command: <code>${e(report.command)}</code> (${Math.round(report.durationSeconds)} s)<br>Machine: ${report.machine.cpus} × ${e(report.machine.cpuModel)}, ${formatBytes(report.machine.memoryBytes)}, ` +
      `Node ${e(report.machine.node)}, Redis ${e(report.machine.redis ?? '?')}, ${e(report.machine.os)}<br>` +
      `Target: ${report.target.kind === 'embedded' ? 'the embedded default, started by the bench' : e(report.target.baseUrl)}. ` +
      `The generator, the server and Redis share this machine's cores.</p>`,
  );
  if (report.options.seed > 0) {
    parts.push(
      `<p><span class="seeded">seeded</span> ${report.options.seed} agents were written straight into Redis through the store code before the scenarios ran; every result after that is marked seeded.</p>`,
    );
  }
  parts.push('');
  parts.push('<h2>Ceilings</h2><table><tr><th>what</th><th>throughput</th><th>p50</th><th>p99</th><th>note</th></tr>');
  if (ceilings.hello) {
    parts.push(
      `<tr><td>trivial uWS route (own process)</td><td>${formatCount(ceilings.hello.throughput)} req/s</td><td>${formatMs(ceilings.hello.latency.p50)}</td><td>${formatMs(ceilings.hello.latency.p99)}</td>` +
        `<td class="l">${ceilings.hello.connections} connections; CPU: hello ${formatPercent(ceilings.hello.cpu.server)}, generator ${formatPercent(ceilings.hello.cpu.generator)}, machine ${formatPercent(ceilings.hello.cpu.machine)}</td></tr>`,
    );
  }
  const helloWrk = ceilings.helloWrk;
  if (helloWrk && 'throughput' in helloWrk) {
    parts.push(
      `<tr><td>trivial uWS route (own process), wrk</td><td>${formatCount(helloWrk.throughput)} req/s</td><td>${formatMs(helloWrk.latency.p50)}</td><td>${formatMs(helloWrk.latency.p99)}</td>` +
        `<td class="l">${helloWrk.threads} thread(s), ${helloWrk.connections} connections, the swipes' Lua request script; errors ${helloWrk.failures}; CPU: hello ${formatPercent(helloWrk.cpu.server)}, wrk ${formatPercent(helloWrk.cpu.wrk)}, machine ${formatPercent(helloWrk.cpu.machine)}</td></tr>`,
    );
  } else if (helloWrk) {
    parts.push(`<tr><td>trivial uWS route, wrk</td><td colspan="4" class="l">not measured: ${e(helloWrk.missing)}</td></tr>`);
  }
  if (ceilings.healthz) {
    parts.push(
      `<tr><td>service GET /healthz</td><td>${formatCount(ceilings.healthz.throughput)} req/s</td><td>${formatMs(ceilings.healthz.latency.p50)}</td><td>${formatMs(ceilings.healthz.latency.p99)}</td><td class="l">the adapter, no store access</td></tr>`,
    );
  }
  if (ceilings.redis) {
    parts.push(
      `<tr><td>Redis PING</td><td>${formatCount(ceilings.redis.throughput)} ops/s</td><td>${formatMs(ceilings.redis.roundTrip.p50)}</td><td>${formatMs(ceilings.redis.roundTrip.p99)}</td>` +
        `<td class="l">${ceilings.redis.connections} connections, one in flight each; latency = one connection in lock-step; ${e(ceilings.redis.source)}</td></tr>`,
    );
  }
  parts.push('</table>');

  parts.push(
    '<h2>Summary</h2><div class="wide"><table><tr><th>scenario</th><th>operation</th><th>n</th><th>req/s</th><th>× uWS</th><th>× PING</th><th>p50</th><th>p95</th><th>p99</th><th>errors</th><th>server RSS</th><th>event-loop p99</th><th>CPU server / redis / generator / machine</th></tr>',
  );
  for (const scenario of report.scenarios) {
    if (scenario.skipped || (scenario.error && scenario.phases.length === 0)) {
      parts.push(
        `<tr><td>${e(scenario.name)}</td><td colspan="12">${e(scenario.skipped ? `skipped: ${scenario.skipped}` : `failed: ${scenario.error}`)}</td></tr>`,
      );
      continue;
    }
    for (const row of rowsOf(scenario, ceilings)) {
      parts.push(
        `<tr><td>${e(row.scenario)}${scenario.seeded ? ' <span class="seeded">seeded</span>' : ''}</td><td>${e(row.phase === row.operation ? row.operation : `${row.phase}: ${row.operation}`)}</td>` +
          `<td>${row.count}</td><td>${formatCount(row.throughput)}</td><td>${formatRatio(row.vsHello)}</td><td>${formatRatio(row.vsRedis)}</td>` +
          `<td>${formatMs(row.p50)}</td><td>${formatMs(row.p95)}</td><td>${formatMs(row.p99)}</td><td class="wrap">${e(row.failures)}</td>` +
          `<td>${formatBytes(row.rssBytes)}</td><td>${formatMs(row.eventLoopDelayP99Ms)}</td>` +
          `<td>${row.cpu ? `${formatPercent(row.cpu.server)} / ${formatPercent(row.cpu.redis)} / ${formatPercent(row.cpu.generator)} / ${formatPercent(row.cpu.machine)}` : '–'}</td></tr>`,
      );
    }
  }
  parts.push(
    "</table></div><p class=\"note\">× uWS and × PING: throughput as a fraction of the trivial uWS route (under the same generator: wrk rows against wrk's) and of Redis PING measured in the same run. On wrk rows the generator's CPU is wrk's. CPU in percent of one core; machine: every process on the machine (up to 100 × cores), so what exceeds the other three is other work. Latencies are client-side (request written → response read). Event-loop p99 is the highest value /metrics showed during the phase.</p>",
  );

  for (const scenario of report.scenarios) parts.push(scenarioSection(scenario));
  if (report.serverProblems.length > 0) {
    parts.push(`<h2>Server warnings and errors</h2><pre>${e(report.serverProblems.join('\n'))}</pre>`);
  }
  if (report.cluster) parts.push(clusterSection(report.cluster));
  parts.push('</body></html>\n');
  return parts.join('\n');
}

/** --cluster: the side-by-side figures, then the cluster run's scenarios in full. */
function clusterSection(cluster: ClusterRun): string {
  const parts: string[] = ['<h2>Single Redis vs Redis Cluster (same run)</h2>'];
  if (cluster.error) return `${parts[0]}<p><strong>The cluster run failed:</strong> ${e(cluster.error)}</p>`;
  parts.push(
    `<p>Masters ${e(cluster.nodes.join(', '))}; ${cluster.processes.length} service processes (${e(cluster.processes.join(', '))}) sharing the load.</p>`,
  );
  parts.push('<table><tr><th>figure</th><th>single Redis</th><th>Redis Cluster</th></tr>');
  const show = (value: number | undefined, unit: string) =>
    value === undefined ? '–' : unit === 'bytes' ? formatBytes(value) : `${roundFigure(value)} ${unit}`;
  for (const row of cluster.comparison)
    parts.push(`<tr><td>${e(row.figure)}</td><td>${e(show(row.single, row.unit))}</td><td>${e(show(row.cluster, row.unit))}</td></tr>`);
  parts.push('</table>');
  for (const scenario of cluster.scenarios) parts.push(scenarioSection({ ...scenario, name: `${scenario.name} [Redis Cluster]` }));
  if (cluster.serverProblems.length > 0) parts.push(`<h3>Cluster service warnings and errors</h3><pre>${e(cluster.serverProblems.join('\n'))}</pre>`);
  return parts.join('\n');
}

function scenarioSection(scenario: ScenarioResult): string {
  const parts: string[] = [];
  parts.push(`<h2>${e(scenario.name)} — ${e(scenario.title)}${scenario.seeded ? ' <span class="seeded">seeded</span>' : ''}</h2>`);
  if (scenario.skipped) return `${parts.join('')}<p>Skipped: ${e(scenario.skipped)}</p>`;
  if (scenario.error) parts.push(`<p><strong>Failed:</strong> ${e(scenario.error)}</p>`);
  for (const note of scenario.notes) parts.push(`<p class="note">${e(note)}</p>`);
  const figures = Object.entries(scenario.figures);
  if (figures.length > 0) {
    parts.push('<table>');
    for (const [name, value] of figures) parts.push(`<tr><td>${e(name)}</td><td>${e(formatFigure(name, value))}</td></tr>`);
    parts.push('</table>');
  }
  for (const phase of scenario.phases) parts.push(phaseSection(phase));
  return parts.join('\n');
}

function phaseSection(phase: PhaseResult): string {
  const parts: string[] = [
    `<h3>${e(phase.name)}</h3><p class="note">${e(phase.description)}${phase.connections ? ` — ${phase.connections} connections` : ''}</p>`,
  ];
  const operations = Object.entries(phase.operations);
  const charts: string[] = [];
  const first = operations[0]?.[1];
  charts.push(
    lineChart(
      operations.map(([name, stats]) => ({ name, points: distributionPoints(stats.buckets) })),
      {
        title: 'Latency distribution',
        xLabel: 'latency (ms, log scale)',
        yLabel: '% of requests',
        logX: true,
        markers:
          operations.length === 1 && first
            ? [
                { x: first.latency.p50, label: 'p50' },
                { x: first.latency.p99, label: 'p99' },
              ]
            : [],
        formatY: (y) => `${Number(y.toPrecision(2))}%`,
      },
    ),
  );
  const timelines = operations.filter(([, stats]) => stats.timeline.length > 1);
  if (timelines.length > 0) {
    charts.push(
      lineChart(
        timelines.map(([name, stats]) => ({ name, points: stats.timeline.map((n, i) => [i + 0.5, n] as [number, number]) })),
        { title: 'Throughput over time', xLabel: 'seconds into the phase', yLabel: 'completions per second' },
      ),
    );
  }
  const samples = phase.window?.samples ?? [];
  if (samples.length >= 5) {
    const t0 = samples[0]!.t;
    const mib = (b?: number) => (b === undefined ? NaN : b / 1024 / 1024);
    charts.push(
      lineChart(
        [
          { name: 'server RSS (MiB)', points: samples.map((s) => [s.t - t0, mib(s.rssBytes)] as [number, number]) },
          { name: 'Redis used memory (MiB)', points: samples.map((s) => [s.t - t0, mib(s.redisUsedMemory)] as [number, number]) },
        ],
        { title: 'Memory over time', xLabel: 'seconds into the phase', yLabel: 'MiB' },
      ),
      lineChart([{ name: 'event-loop delay p99 (ms)', points: samples.map((s) => [s.t - t0, s.eventLoopDelayP99Ms ?? NaN] as [number, number]) }], {
        title: 'Event-loop delay over time',
        xLabel: 'seconds into the phase',
        yLabel: 'ms',
      }),
    );
  }
  parts.push(`<div class="charts">${charts.join('')}</div>`);
  const server = Object.entries(phase.window?.serverRoutes ?? {});
  if (server.length > 0) {
    parts.push('<table><tr><th>server-side (from /metrics)</th><th>requests</th><th>mean</th></tr>');
    for (const [route, s] of server) parts.push(`<tr><td>${e(route)}</td><td>${s.count}</td><td>${formatMs(s.meanMs)}</td></tr>`);
    parts.push('</table>');
  }
  return parts.join('\n');
}
