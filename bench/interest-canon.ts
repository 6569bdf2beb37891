/**
 * What the interest matcher costs: the heap its word list's two Maps hold, and the time of one
 * canonicalInterest call on a mix of listed forms, word forms and interests the list does not know. Runs
 * in this process with a forced GC (node --expose-gc), no service, no Redis.
 *
 *   node --expose-gc --import tsx bench/interest-canon.ts [--calls 1000000]
 */
import { parseArgs } from 'node:util';
import { buildCanonicalMap, canonicalInterest, compactForm, knownInterestForms } from '../src/features/accounts/interest-canon.js';
import { INTEREST_SYNONYMS } from '../src/features/accounts/interest-synonyms.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '1000000' } } });
const calls = Number(values.calls);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx bench/interest-canon.ts');

// Heap: build the two Maps (written forms, and their compact forms) 50 times, keep them all, and divide the growth.
const copies = 50;
gc();
const before = process.memoryUsage().heapUsed;
const kept = Array.from({ length: copies }, () => [buildCanonicalMap(INTEREST_SYNONYMS), buildCanonicalMap(INTEREST_SYNONYMS, compactForm)]);
gc();
const perMap = (process.memoryUsage().heapUsed - before) / copies;

const inputs = [
  'ML',
  'Hikes',
  'machine learning',
  'Sci-Fi',
  'trail runners',
  'board games',
  'knitting',
  'jazz',
  'sudokus',
  'urban sketchers',
  'K-Pop',
  'standup comedy',
];
let sink = 0;
for (let i = 0; i < 100_000; i++) sink += canonicalInterest(inputs[i % inputs.length]!).length;
const started = process.hrtime.bigint();
for (let i = 0; i < calls; i++) sink += canonicalInterest(inputs[i % inputs.length]!).length;
const nanos = Number(process.hrtime.bigint() - started) / calls;

console.log(`interest matcher: ${knownInterestForms()} written forms, ${INTEREST_SYNONYMS.length} canonical names`);
console.log(`  heap of the two lookup Maps: ${(perMap / 1024).toFixed(1)} KiB (mean of ${kept.length} copies)`);
console.log(`  canonicalInterest: ${(nanos / 1000).toFixed(2)} µs a call (mean over ${calls.toLocaleString('en')} calls; ${sink > 0 ? 'mixed inputs' : ''})`);
