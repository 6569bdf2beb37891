import { INTEREST_SYNONYMS } from './interest-synonyms.js';

/**
 * One canonical name per interest, so "ML" and "machine learning", "hike" and "hiking", "JS" and
 * "javascript", "kpop" and "K-Pop" are the same interest everywhere (feed, match, mentions). The interest
 * is folded (case, white space, hyphens and underscores, surrounding punctuation) and looked up in the
 * word list of interest-synonyms.ts, as it is, then without its spaces and dots (so a form of a listed
 * interest that differs only in punctuation or spacing is that interest: "standup comedy", "e sports");
 * then, on a miss, its last word's plural, -ing, -er and -ed forms are tried the same two ways. An
 * interest the list does not know keeps its folded form. A handful of string operations and Map lookups;
 * no I/O, no model.
 */
export function canonicalInterest(interest: string): string {
  const folded = foldInterest(interest);
  if (!folded) return '';
  const direct = lookUp(folded);
  if (direct !== undefined) return direct;
  const space = folded.lastIndexOf(' ');
  const head = folded.slice(0, space + 1);
  const last = folded.slice(space + 1);
  for (const form of baseForms(last)) {
    const hit = lookUp(head + form);
    if (hit !== undefined) return hit;
  }
  return folded;
}

/** A folded form's canonical name, as written or without its spaces and dots; undefined when the list has neither. */
const lookUp = (folded: string): string | undefined => CANONICAL.get(folded) ?? COMPACT.get(compactForm(folded));

/** A folded form without its spaces, dots and slashes: "k pop", "kpop" and "node.js" / "nodejs" meet. */
export const compactForm = (folded: string): string => folded.replace(/[\s./]+/gu, '');

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

/**
 * Written form → canonical name, each form keyed by `key` of its folded form (the form itself, or its
 * compact form); throws when one key is listed under two names.
 */
export function buildCanonicalMap(rows: readonly (readonly string[])[], key: (folded: string) => string = (folded) => folded): Map<string, string> {
  const map = new Map<string, string>();
  for (const row of rows) {
    const canonical = row[0]!;
    for (const written of row) {
      const at = key(foldInterest(written));
      const earlier = map.get(at);
      if (earlier !== undefined && earlier !== canonical) throw new Error(`interest "${written}" is listed under both "${earlier}" and "${canonical}"`);
      map.set(at, canonical);
    }
  }
  return map;
}

const CANONICAL = buildCanonicalMap(INTEREST_SYNONYMS);
const COMPACT = buildCanonicalMap(INTEREST_SYNONYMS, compactForm);

/** How many written forms the list knows (for the performance notes). */
export const knownInterestForms = (): number => CANONICAL.size;
