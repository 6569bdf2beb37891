import { formatBytes, formatCount, formatMs, formatPercent, formatRatio } from './format.js';
import type { ClusterRun } from './cluster-comparison.js';
import { renderCompare } from './compare-table.js';
import { rowsOf, type BenchReport } from './report.js';
import type { Ceilings, ScenarioResult } from './types.js';

/** The plain-text summary printed at the end of a run. */
export function renderTable(report: BenchReport): string {
  const out: string[] = [];
  const { ceilings } = report;
  out.push(
    `Machine: ${report.machine.cpus} × ${report.machine.cpuModel}, ${formatBytes(report.machine.memoryBytes)}, Node ${report.machine.node}, Redis ${report.machine.redis ?? '?'}`,
  );
  out.push(`Target: ${report.target.kind === 'embedded' ? 'embedded default (started by the bench)' : report.target.baseUrl}`);
  out.push(`Run: ${report.command} (${Math.round(report.durationSeconds)} s)`);
  if (report.compare) return [...out, '', renderCompare(report.compare), ...problemLines(report.serverProblems)].join('\n');
  if (report.options.seed > 0)
    out.push(
      `Seeded: ${report.options.seed} agents written straight into Redis through the store code before the scenarios; their results are marked (seeded).`,
    );
  out.push('');
  out.push('Ceilings (same run; the uWS route under each generator):');
  if (ceilings.hello) {
    out.push(
      `  trivial uWS route      ${formatCount(ceilings.hello.throughput)} req/s  p50 ${formatMs(ceilings.hello.latency.p50)}  p99 ${formatMs(ceilings.hello.latency.p99)}  ` +
        `(${ceilings.hello.connections} connections; CPU hello ${formatPercent(ceilings.hello.cpu.server)}, generator ${formatPercent(ceilings.hello.cpu.generator)}, machine ${formatPercent(ceilings.hello.cpu.machine)})`,
    );
  }
  const helloWrk = ceilings.helloWrk;
  if (helloWrk && 'throughput' in helloWrk) {
    out.push(
      `  trivial uWS route, wrk ${formatCount(helloWrk.throughput)} req/s  p50 ${formatMs(helloWrk.latency.p50)}  p99 ${formatMs(helloWrk.latency.p99)}  ` +
        `(${helloWrk.threads} thread(s), ${helloWrk.connections} connections, errors ${helloWrk.failures}; CPU hello ${formatPercent(helloWrk.cpu.server)}, wrk ${formatPercent(helloWrk.cpu.wrk)}, machine ${formatPercent(helloWrk.cpu.machine)})`,
    );
  } else if (helloWrk) {
    out.push(`  trivial uWS route, wrk not measured: ${helloWrk.missing}`);
  }
  if (ceilings.healthz) {
    out.push(
      `  service GET /healthz   ${formatCount(ceilings.healthz.throughput)} req/s  p50 ${formatMs(ceilings.healthz.latency.p50)}  p99 ${formatMs(ceilings.healthz.latency.p99)}`,
    );
  }
  if (ceilings.redis) {
    out.push(
      `  Redis PING             ${formatCount(ceilings.redis.throughput)} ops/s (${ceilings.redis.connections} connections)  round trip p50 ${formatMs(ceilings.redis.roundTrip.p50)}  p99 ${formatMs(ceilings.redis.roundTrip.p99)}  [${ceilings.redis.source}]`,
    );
  }
  out.push('');
  out.push(...scenarioLines(report.scenarios, ceilings));
  out.push(...problemLines(report.serverProblems));
  if (report.cluster) out.push('', ...clusterLines(report.cluster, ceilings));
  return out.join('\n');
}

function problemLines(problems: string[]): string[] {
  if (problems.length === 0) return [];
  return ['', `The server logged ${problems.length} warning/error line(s); first ones:`, ...problems.slice(0, 5).map((line) => `  ${line}`)];
}

/** The same scenarios on the Redis Cluster, then the side-by-side figures. */
function clusterLines(cluster: ClusterRun, ceilings: Ceilings): string[] {
  const out: string[] = [];
  if (cluster.error) return [`Redis Cluster run failed: ${cluster.error}`];
  out.push(
    `Redis Cluster: masters ${cluster.nodes.join(', ')}; ${cluster.processes.length} service processes (${cluster.processes.join(', ')}) sharing the load.`,
    '',
  );
  out.push(...scenarioLines(cluster.scenarios, ceilings));
  if (cluster.serverProblems.length > 0) {
    out.push('', `The cluster's service processes logged ${cluster.serverProblems.length} warning/error line(s); first ones:`);
    for (const line of cluster.serverProblems.slice(0, 5)) out.push(`  ${line}`);
  }
  out.push('', 'Single Redis vs Redis Cluster (same run, same machine):');
  const lines = [['figure', 'single', 'cluster', 'unit']];
  const show = (value: number | undefined, unit: string) => (value === undefined ? '–' : unit === 'bytes' ? formatBytes(value) : roundFigure(value));
  for (const row of cluster.comparison) lines.push([row.figure, show(row.single, row.unit), show(row.cluster, row.unit), row.unit === 'bytes' ? '' : row.unit]);
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  for (const [index, line] of lines.entries()) {
    const text = line
      .map((cell, i) => (i === 1 || i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
    out.push(`  ${text}`);
    if (index === 0) out.push(`  ${'-'.repeat(text.length)}`);
  }
  return out;
}

/** The summary table of a list of scenarios, then each one's figures and notes. */
function scenarioLines(scenarios: ScenarioResult[], ceilings: Ceilings): string[] {
  const out: string[] = [];
  const header = ['scenario', 'operation', 'n', 'req/s', '×uWS', '×PING', 'p50', 'p95', 'p99', 'errors', 'srv RSS', 'ELD p99', 'CPU srv/redis/gen/machine'];
  const lines: string[][] = [header];
  for (const scenario of scenarios) {
    if (scenario.skipped || (scenario.error && scenario.phases.length === 0)) {
      const why = scenario.skipped ? `skipped: ${scenario.skipped}` : `failed: ${scenario.error}`;
      lines.push([scenario.name, why.length > 60 ? `${why.slice(0, 59)}… (below)` : why, '', '', '', '', '', '', '', '', '', '', '']);
      continue;
    }
    for (const row of rowsOf(scenario, ceilings)) {
      lines.push([
        `${row.scenario}${scenario.seeded ? ' (seeded)' : ''}`,
        row.phase === row.operation ? row.operation : `${row.phase}: ${row.operation}`,
        String(row.count),
        formatCount(row.throughput),
        formatRatio(row.vsHello),
        formatRatio(row.vsRedis),
        formatMs(row.p50),
        formatMs(row.p95),
        formatMs(row.p99),
        row.failures,
        formatBytes(row.rssBytes),
        formatMs(row.eventLoopDelayP99Ms),
        row.cpu
          ? `${formatPercent(row.cpu.server)}/${formatPercent(row.cpu.redis)}/${formatPercent(row.cpu.generator)}/${formatPercent(row.cpu.machine)}`
          : '–',
      ]);
    }
  }
  out.push(...alignColumns(lines));
  for (const scenario of scenarios) {
    const figures = Object.entries(scenario.figures);
    if (figures.length === 0 && scenario.notes.length === 0 && !scenario.error && !scenario.skipped) continue;
    out.push('', `${scenario.name}${scenario.seeded ? ' (seeded)' : ''}:`);
    for (const [name, value] of figures) out.push(`  ${name}: ${formatFigure(name, value)}`);
    for (const note of scenario.notes) out.push(`  note: ${note}`);
    if (scenario.error) out.push(`  error: ${scenario.error}`);
    if (scenario.skipped) out.push(`  skipped: ${scenario.skipped}`);
  }
  return out;
}

/** A headline figure: rounded, with a readable size beside byte counts. */
export function formatFigure(name: string, value: number | string): string {
  if (typeof value !== 'number') return value;
  return /bytes/.test(name) && Math.abs(value) >= 10_240 ? `${roundFigure(value)} (${formatBytes(value)})` : roundFigure(value);
}

export function roundFigure(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2) : value.toPrecision(3);
}

function alignColumns(lines: string[][]): string[] {
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  return lines.map((line, index) => {
    const text = line
      .map((cell, i) => (i >= 2 && i <= 11 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
    return index === 0 ? `${text}\n${'-'.repeat(text.length)}` : text;
  });
}
