import { canonicalInterest } from '../accounts/index.js';

/**
 * The interests among `interests` that `body` mentions: whole words, case-insensitive, a multi-word
 * interest ("jazz music") as a phrase (any run of white space between its words), or any word or pair of
 * adjacent words whose canonical name is the interest ("hike" and "ML" mention "hiking" and "machine
 * learning"). Interests are expected canonical, as profiles store them; the result keeps their order.
 */
export function mentionedInterests(body: string, interests: readonly string[]): string[] {
  if (interests.length === 0) return [];
  const text = body.normalize('NFC').toLowerCase();
  let canonical: Set<string> | undefined;
  return interests.filter((interest) => mentionPattern(interest).test(text) || (canonical ??= canonicalPhrases(text)).has(interest));
}

/** The canonical names of every word and every pair of adjacent words of `text`. */
function canonicalPhrases(text: string): Set<string> {
  // Identifiers (under_go) are not words here: folding their underscores would make them phrases.
  const words = (text.match(WORDS) ?? []).filter((word) => !word.includes('_'));
  const names = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    names.add(canonicalInterest(words[i]!));
    if (i + 1 < words.length) names.add(canonicalInterest(`${words[i]} ${words[i + 1]}`));
  }
  return names;
}

// A "word" character: a letter, a combining mark, a digit or an underscore, in any script.
const WORD = '[\\p{L}\\p{M}\\p{N}_]';
// A word as the matcher sees one: word characters, with inner hyphens, dots and apostrophes, and a
// trailing + or # (c++, c#).
const WORDS = /[\p{L}\p{M}\p{N}_]+(?:[-.'&][\p{L}\p{M}\p{N}_]+)*[+#]*/gu;

function mentionPattern(interest: string): RegExp {
  const words = interest.normalize('NFC').toLowerCase().trim().split(/\s+/u).map(escapeRegExp);
  return new RegExp(`(?<!${WORD})${words.join('\\s+')}(?!${WORD})`, 'u');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
