import { formatBytes } from './format.js';

/** One figure per master, each with its deviation from the mean of all masters. */
export type BalanceColumn = { name: string; values: number[]; bytes?: boolean };

/** Deviation of each value from the mean, as a fraction (+0.12 = 12% above the mean). */
export function deviations(values: readonly number[]): number[] {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.map((value) => (mean === 0 ? 0 : (value - mean) / mean));
}

const percent = (fraction: number) => `${fraction >= 0 ? '+' : ''}${(100 * fraction).toFixed(1)}%`;

/** The per-master table: each column's value and its deviation from the mean. */
export function renderBalance(nodes: readonly string[], columns: readonly BalanceColumn[]): string {
  const header = ['master', ...columns.flatMap((column) => [column.name, 'vs mean'])];
  const devs = columns.map((column) => deviations(column.values));
  const rows = nodes.map((node, i) => [
    node,
    ...columns.flatMap((column, c) => [column.bytes ? formatBytes(column.values[i]) : String(column.values[i]), percent(devs[c]![i]!)]),
  ]);
  const lines = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)));
  const text = lines.map((line) => line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  return [text[0], '-'.repeat(text[0]!.length), ...text.slice(1)].join('\n');
}

/** The largest deviation from the mean over every column. */
export function worstDeviation(columns: readonly BalanceColumn[]): { column: string; deviation: number } {
  let worst = { column: '', deviation: 0 };
  for (const column of columns) {
    for (const deviation of deviations(column.values)) if (Math.abs(deviation) >= Math.abs(worst.deviation)) worst = { column: column.name, deviation };
  }
  return worst;
}
