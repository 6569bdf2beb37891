import { canonicalInterest } from './interest-canon.js';

export const MAX_INTERESTS = 30;
export const MAX_INTEREST_LENGTH = 40;

/** The entries as sent: a comma-separated string's parts, or the list's items. */
export const interestEntries = (input: string | readonly string[]): readonly string[] => (typeof input === 'string' ? input.split(',') : input);

/**
 * Each entry's canonical name (see interest-canon.ts: "ML" → "machine learning", "Hikes" → "hiking");
 * drop empty and duplicate entries, keeping first-seen order.
 */
export function normalizeInterests(input: string | readonly string[]): string[] {
  const seen = new Set<string>();
  for (const entry of interestEntries(input)) {
    const clean = canonicalInterest(entry);
    if (clean) seen.add(clean);
  }
  return [...seen];
}

/** Interests both lists hold, in the order of the first list. */
export function sharedInterests(a: readonly string[], b: readonly string[]): string[] {
  const other = new Set(b);
  return a.filter((interest) => other.has(interest));
}
