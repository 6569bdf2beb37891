/** Small self-contained SVG line charts for the HTML report (no scripts, no external assets). */

export type Series = { name: string; points: Array<[number, number]> };

export type ChartOptions = {
  title: string;
  xLabel: string;
  yLabel: string;
  logX?: boolean;
  width?: number;
  height?: number;
  /** Vertical markers, e.g. p50 and p99. */
  markers?: Array<{ x: number; label: string }>;
  formatX?: (x: number) => string;
  formatY?: (y: number) => string;
};

const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function lineChart(series: Series[], options: ChartOptions): string {
  const legend = series.length > 1;
  const width = (options.width ?? 560) + (legend ? 170 : 0);
  const height = options.height ?? 260;
  const pad = { left: 62, right: legend ? 186 : 16, top: 28, bottom: 42 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const all = series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!options.logX || x > 0));
  if (all.length === 0) return '';
  const tx = (x: number) => (options.logX ? Math.log10(x) : x);
  let minX = Math.min(...all.map(([x]) => tx(x)));
  let maxX = Math.max(...all.map(([x]) => tx(x)));
  if (maxX === minX) maxX = minX + 1;
  const maxY = niceCeil(Math.max(...all.map(([, y]) => y)));
  if (options.logX) {
    minX = Math.floor(minX);
    maxX = Math.ceil(maxX);
  }
  const sx = (x: number) => pad.left + ((tx(x) - minX) / (maxX - minX)) * plotW;
  const sy = (y: number) => pad.top + plotH - (y / (maxY || 1)) * plotH;
  const fx = options.formatX ?? ((x: number) => trim(x));
  const fy = options.formatY ?? ((y: number) => trim(y));
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.title)}">`,
  );
  parts.push(`<text x="${width / 2}" y="16" text-anchor="middle" class="t">${escapeHtml(options.title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const y = (maxY * i) / 4;
    parts.push(`<line x1="${pad.left}" x2="${width - pad.right}" y1="${sy(y)}" y2="${sy(y)}" class="g"/>`);
    parts.push(`<text x="${pad.left - 6}" y="${sy(y) + 4}" text-anchor="end" class="a">${escapeHtml(fy(y))}</text>`);
  }
  const ticks = options.logX
    ? Array.from({ length: maxX - minX + 1 }, (_, i) => 10 ** (minX + i))
    : Array.from({ length: 6 }, (_, i) => minX + ((maxX - minX) * i) / 5);
  for (const x of ticks) {
    parts.push(`<line x1="${sx(x)}" x2="${sx(x)}" y1="${pad.top}" y2="${pad.top + plotH}" class="g"/>`);
    parts.push(`<text x="${sx(x)}" y="${pad.top + plotH + 14}" text-anchor="middle" class="a">${escapeHtml(fx(x))}</text>`);
  }
  parts.push(`<text x="${pad.left + plotW / 2}" y="${height - 6}" text-anchor="middle" class="a">${escapeHtml(options.xLabel)}</text>`);
  parts.push(
    `<text x="12" y="${pad.top + plotH / 2}" text-anchor="middle" class="a" transform="rotate(-90 12 ${pad.top + plotH / 2})">${escapeHtml(options.yLabel)}</text>`,
  );
  for (const marker of options.markers ?? []) {
    if (options.logX && marker.x <= 0) continue;
    parts.push(`<line x1="${sx(marker.x)}" x2="${sx(marker.x)}" y1="${pad.top}" y2="${pad.top + plotH}" class="m"/>`);
    parts.push(`<text x="${sx(marker.x) + 3}" y="${pad.top + 10}" class="a">${escapeHtml(marker.label)}</text>`);
  }
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!options.logX || x > 0));
    if (points.length === 0) return;
    const d = points.map(([x, y], j) => `${j === 0 ? 'M' : 'L'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join('');
    parts.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.6"/>`);
    if (points.length === 1) parts.push(`<circle cx="${sx(points[0]![0])}" cy="${sy(points[0]![1])}" r="3" fill="${colour}"/>`);
    if (!legend) return;
    const x = width - pad.right + 12;
    parts.push(`<rect x="${x}" y="${pad.top + 6 + i * 16}" width="12" height="3" fill="${colour}"/>`);
    parts.push(`<text x="${x + 16}" y="${pad.top + 11 + i * 16}" class="a">${escapeHtml(s.name.length > 26 ? `${s.name.slice(0, 25)}…` : s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

function niceCeil(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function trim(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(0)}k`;
  if (n >= 100) return n.toFixed(0);
  if (n >= 1) return Number(n.toFixed(1)).toString();
  return Number(n.toPrecision(2)).toString();
}

/** Latency buckets [upper ms, count] → points of the share of requests per bucket group (about 10 per decade). */
export function distributionPoints(buckets: Array<[number, number]>): Array<[number, number]> {
  const total = buckets.reduce((n, [, c]) => n + c, 0);
  if (total === 0) return [];
  const grouped = new Map<number, number>();
  for (const [upper, count] of buckets) {
    const key = Math.round(Math.log10(upper) * 10);
    grouped.set(key, (grouped.get(key) ?? 0) + count);
  }
  const keys = [...grouped.keys()].sort((a, b) => a - b);
  const points: Array<[number, number]> = [];
  for (let k = keys[0]! - 1; k <= keys[keys.length - 1]! + 1; k++) points.push([10 ** (k / 10), (100 * (grouped.get(k) ?? 0)) / total]);
  return points;
}
