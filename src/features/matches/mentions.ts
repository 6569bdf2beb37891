/**
 * The interests among `interests` that `body` mentions: whole words, case-insensitive, a multi-word
 * interest ("jazz music") as a phrase (any run of white space between its words). Interests are
 * expected normalised (lower-case, single spaces), as profiles store them; the result keeps their order.
 */
export function mentionedInterests(body: string, interests: readonly string[]): string[] {
  if (interests.length === 0) return [];
  const text = body.normalize('NFC').toLowerCase();
  return interests.filter((interest) => mentionPattern(interest).test(text));
}

// A "word" character: a letter, a combining mark, a digit or an underscore, in any script.
const WORD = '[\\p{L}\\p{M}\\p{N}_]';

function mentionPattern(interest: string): RegExp {
  const words = interest.normalize('NFC').toLowerCase().trim().split(/\s+/u).map(escapeRegExp);
  return new RegExp(`(?<!${WORD})${words.join('\\s+')}(?!${WORD})`, 'u');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
