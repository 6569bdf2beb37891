/**
 * `npm run bench:matching -- [--agents N] [--seed N] [--rounds N]`: the matching bench in-process (see
 * bench/matching/). Prints a table per ranking and writes bench/results/matching-<timestamp>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from './lib/children.js';
import { MATCHING_DEFAULTS, matchingTable, runMatching } from './matching/simulate.js';

const { values } = parseArgs({ options: { agents: { type: 'string' }, seed: { type: 'string' }, rounds: { type: 'string' }, out: { type: 'string' } } });
const whole = (name: string, value: string | undefined, fallback: number, min: number) => {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number of at least ${min}`);
    process.exit(2);
  }
  return n;
};
const options = {
  agents: whole('agents', values.agents, MATCHING_DEFAULTS.agents, 20),
  seed: whole('seed', values.seed, MATCHING_DEFAULTS.seed, 0),
  rounds: whole('rounds', values.rounds, MATCHING_DEFAULTS.rounds, 1),
  feedSize: MATCHING_DEFAULTS.feedSize,
};
const startedAt = new Date();
const report = runMatching(options, (line) => console.error(line));
const outDir = resolve(REPO_ROOT, values.out ?? 'bench/results');
mkdirSync(outDir, { recursive: true });
const path = join(outDir, `matching-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
const command = `npm run bench:matching -- ${process.argv.slice(2).join(' ')}`.trim();
writeFileSync(path, `${JSON.stringify({ command, startedAt: startedAt.toISOString(), ...report }, null, 2)}\n`);
console.log(`${matchingTable(report)}\nReport: ${path}`);
