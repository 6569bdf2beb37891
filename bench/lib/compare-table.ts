import { formatCount, formatMs } from './format.js';

/** What --compare measures in turns: the ref's service and the work tree's. */
export type Side = 'ref' | 'tree';
export type Turn = { side: Side; round: number };
/** One turn's figures: `<phase>_req_s`, `<phase>_p50_ms`, `<phase>_p99_ms`, `<phase>_server_cpu_us`, `<phase>_failures`. */
export type CompareSample = Turn & { figures: Record<string, number> };
export type CompareRow = { figure: string; ref: number[]; tree: number[]; refMedian?: number; treeMedian?: number; ratio?: number };

export type CompareRun = {
  ref: string;
  refCommit: string;
  treeCommit: string;
  /** The work tree had uncommitted changes: they were measured as "tree". */
  treeDirty: boolean;
  installed: 'shared' | 'npm ci';
  rounds: number;
  samples: CompareSample[];
  rows: CompareRow[];
  notes: string[];
  error?: string;
};

/** ref, tree, ref, tree…: each round measures both, one right after the other, so that drifting machine load hits both. */
export function turnOrder(rounds: number): Turn[] {
  const turns: Turn[] = [];
  for (let round = 1; round <= rounds; round++) turns.push({ side: 'ref', round }, { side: 'tree', round });
  return turns;
}

export function median(values: number[]): number | undefined {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Per figure (in the order first measured): every round's value on each side, their medians and tree / ref. */
export function compareRows(samples: CompareSample[]): CompareRow[] {
  const names: string[] = [];
  for (const sample of samples) for (const name of Object.keys(sample.figures)) if (!names.includes(name)) names.push(name);
  return names.map((figure) => {
    const of = (side: Side) => samples.filter((s) => s.side === side && figure in s.figures).map((s) => s.figures[figure]!);
    const ref = of('ref');
    const tree = of('tree');
    const refMedian = median(ref);
    const treeMedian = median(tree);
    const ratio = refMedian !== undefined && treeMedian !== undefined && refMedian !== 0 ? treeMedian / refMedian : undefined;
    return { figure, ref, tree, refMedian, treeMedian, ratio };
  });
}

function formatFigure(figure: string, value: number | undefined): string {
  if (value === undefined) return '–';
  if (figure.endsWith('_ms')) return formatMs(value);
  if (figure.endsWith('_failures')) return String(value);
  return formatCount(value);
}

/** The printed comparison: medians over the rounds, every round's value, and tree / ref. */
export function renderCompare(run: CompareRun): string {
  const out = [
    `Compare: tree ${run.treeCommit.slice(0, 10)}${run.treeDirty ? ' + uncommitted changes' : ''} against ${run.ref} (${run.refCommit.slice(0, 10)}), ${run.rounds} rounds in turns (ref, tree, ref, tree…)`,
  ];
  if (run.error) out.push(`Stopped early: ${run.error}`);
  const lines = [['figure', 'ref', 'tree', 'tree/ref', 'ref rounds', 'tree rounds']];
  for (const row of run.rows) {
    lines.push([
      row.figure,
      formatFigure(row.figure, row.refMedian),
      formatFigure(row.figure, row.treeMedian),
      row.ratio === undefined ? '–' : row.ratio.toFixed(2),
      row.ref.map((v) => formatFigure(row.figure, v)).join(' '),
      row.tree.map((v) => formatFigure(row.figure, v)).join(' '),
    ]);
  }
  const widths = lines[0]!.map((_, c) => Math.max(...lines.map((l) => l[c]!.length)));
  for (const line of lines)
    out.push(`  ${line.map((cell, c) => (c === 0 || c >= 4 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`.trimEnd());
  out.push('  (ref and tree: medians over the rounds; req_s higher is better, _ms and server_cpu_us lower is better)');
  for (const note of run.notes) out.push(`  ${note}`);
  return out.join('\n');
}
