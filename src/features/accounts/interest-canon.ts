import { INTEREST_SYNONYMS } from './interest-synonyms.js';

/**
 * One canonical name per interest, so "ML" and "machine learning", "hike" and "hiking", "JS" and
 * "javascript" are the same interest everywhere (feed, match, mentions). The interest is folded (case,
 * white space, hyphens and underscores, surrounding punctuation), looked up in the word list of
 * interest-synonyms.ts, then, on a miss, its last word's plural, -ing, -er and -ed forms are tried
 * against the same list. An interest the list does not know keeps its folded form. A handful of string operations and Map lookups; no I/O, no model.
 */
export function canonicalInterest(interest: string): string {
  const folded = foldInterest(interest);
  if (!folded) return '';
  const direct = CANONICAL.get(folded);
  if (direct !== undefined) return direct;
  const space = folded.lastIndexOf(' ');
  const head = folded.slice(0, space + 1);
  const last = folded.slice(space + 1);
  for (const form of baseForms(last)) {
    const hit = CANONICAL.get(head + form);
    if (hit !== undefined) return hit;
  }
  return folded;
}

/** Lower case, NFC, hyphens/underscores/dashes as spaces, single spaces, no ASCII punctuation at either end. */
export function foldInterest(interest: string): string {
  return interest
    .normalize('NFC')
    .toLowerCase()
    .replace(/[-_\u2010-\u2015]+/gu, ' ')
    .replace(/[\u2018\u2019']/gu, '')
    .replace(/\s+/gu, ' ')
    .replace(/^[\s!"$%&'()*,./:;<=>?@[\\\]^`{|}~]+|[\s!"$%&'()*,./:;<=>?@[\\\]^`{|}~]+$/gu, '');
}

/** Candidate base forms of a word, most likely first: hikes → hike, hiking → hike, runner → run. */
function baseForms(word: string): string[] {
  const forms: string[] = [];
  const add = (stem: string) => {
    if (stem.length >= 3) forms.push(stem);
  };
  const undouble = (stem: string) => (/([b-df-hj-np-tv-z])\1$/u.test(stem) ? stem.slice(0, -1) : stem);
  if (word.endsWith('ies')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) add(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) add(word.slice(0, -1));
  for (const suffix of ['ing', 'er', 'ers', 'ed']) {
    if (!word.endsWith(suffix) || word.length < suffix.length + 2) continue;
    const stem = word.slice(0, -suffix.length);
    add(stem);
    add(`${stem}e`);
    add(undouble(stem));
  }
  return forms;
}

/** Folded written form → canonical name; throws when one form is listed under two names. */
export function buildCanonicalMap(rows: readonly (readonly string[])[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const row of rows) {
    const canonical = row[0]!;
    for (const written of row) {
      const key = foldInterest(written);
      const earlier = map.get(key);
      if (earlier !== undefined && earlier !== canonical) throw new Error(`interest "${written}" is listed under both "${earlier}" and "${canonical}"`);
      map.set(key, canonical);
    }
  }
  return map;
}

const CANONICAL = buildCanonicalMap(INTEREST_SYNONYMS);

/** How many written forms the list knows (for the performance notes). */
export const knownInterestForms = (): number => CANONICAL.size;
