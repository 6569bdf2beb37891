import { z } from 'zod';
import { withJsonRules } from './json-rules.js';

/**
 * The text policy, applied to every free-text value an account or message carries (display name, bio,
 * interests, city, state, message body) and to the text filters of browse:
 * - NFC-normalised and trimmed; in fields that keep line breaks (bio, message body) a CRLF becomes \n.
 * - Refused, never silently removed (400 validation_failed naming the field and the reason):
 *   bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C);
 *   zero-width characters (U+200B, U+2060, U+FEFF, U+180E; U+200C and U+200D only where they do not join
 *   two visible characters, so emoji sequences and Persian or Indic spellings keep working);
 *   every other control (Cc) or format (Cf) character, except \n and tab in bios and message bodies, and
 *   emoji tag sequences (subdivision flags); U+2028/U+2029 (use \n);
 *   more than MAX_COMBINING_MARKS combining marks on one character;
 *   blank-looking values: nothing visible once white space, invisible characters, fillers and marks are
 *   set aside (an optional field may still be sent as "" to clear it).
 */
export const MAX_COMBINING_MARKS = 4;

export type TextRules = { multiline?: boolean };

const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
const ZERO_WIDTH = /[\u200B\u2060\uFEFF\u180E]/u;
const JOINER = /[\u200C\u200D]/u;
const LINE_SEPARATOR = /[\u2028\u2029]/u;
const CONTROL = /\p{Cc}/u;
const FORMAT = /\p{Cf}/u;
const MARK = /\p{M}/u;
/** Characters that draw nothing although they are letters or symbols (Hangul fillers, the braille blank). */
const FILLER = /[\u115F\u1160\u3164\uFFA0\u2800]/u;
/** A black flag followed by tag characters and a cancel tag: a subdivision flag such as Scotland's. */
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
const invisible = (c: string) => /\s/u.test(c) || CONTROL.test(c) || FORMAT.test(c) || MARK.test(c) || FILLER.test(c);
const canNeighbourJoiner = (c: string | undefined) => c !== undefined && !/\s/u.test(c) && !CONTROL.test(c) && !FORMAT.test(c);

/** Every way `value` (already normalised and trimmed) breaks the text policy, one reason per kind. */
export function textProblems(value: string, { multiline = false }: TextRules = {}): string[] {
  const problems = new Map<string, string>();
  const add = (kind: string, message: string) => {
    if (!problems.has(kind)) problems.set(kind, message);
  };
  const chars = [...value.replace(EMOJI_TAG_SEQUENCE, '\u{1F3F4}')];
  let marks = 0;
  chars.forEach((c, i) => {
    marks = MARK.test(c) ? marks + 1 : 0;
    if (marks > MAX_COMBINING_MARKS) add('marks', `must not stack more than ${MAX_COMBINING_MARKS} combining marks on one character`);
    if (c === '\n' || c === '\t' || c === '\r' || LINE_SEPARATOR.test(c)) {
      if (!multiline) add('lines', 'must be a single line (no line breaks or tabs)');
      else if (c !== '\n' && c !== '\t') add('lines', `must use \\n for line breaks (found ${hex(c)})`);
    } else if (BIDI_CONTROL.test(c)) {
      add('bidi', `must not contain bidirectional control characters (found ${hex(c)})`);
    } else if (ZERO_WIDTH.test(c)) {
      add('zero-width', `must not contain zero-width characters (found ${hex(c)})`);
    } else if (JOINER.test(c)) {
      if (!canNeighbourJoiner(chars[i - 1]) || !canNeighbourJoiner(chars[i + 1])) {
        add('zero-width', `must not contain zero-width characters (found ${hex(c)} not between two visible characters)`);
      }
    } else if (CONTROL.test(c)) {
      add('control', `must not contain control characters (found ${hex(c)})`);
    } else if (FORMAT.test(c)) {
      add('format', `must not contain invisible format characters (found ${hex(c)})`);
    }
  });
  if (chars.length > 0 && chars.every(invisible)) add('blank', 'must not be blank (it has no visible characters)');
  return [...problems.values()];
}

/** NFC and trimmed; CRLF as \n where line breaks are kept. Left as is when it holds a lone surrogate. */
export function normalizeText(value: string, { multiline = false }: TextRules = {}): string {
  if (!value.isWellFormed()) return value;
  const normal = value.normalize('NFC').trim();
  return multiline ? normal.replaceAll('\r\n', '\n') : normal;
}

export const codePointLength = (s: string) => [...s].length;

/**
 * A free-text field under the text policy above, length counted in characters (code points) after
 * normalising, refusing lone surrogates.
 */
export function text(opts: { min?: number; max: number; multiline?: boolean }) {
  const { min = 0, max, multiline = false } = opts;
  const schema = z
    .string({ error: 'must be a string' })
    .superRefine((value, ctx) => {
      if (!value.isWellFormed()) ctx.addIssue({ code: 'custom', message: 'contains an invalid unicode sequence (lone surrogate)' });
    })
    .transform((value) => normalizeText(value, { multiline }))
    .superRefine((value, ctx) => {
      const length = codePointLength(value);
      if (length < min) ctx.addIssue({ code: 'custom', message: min === 1 ? 'must not be empty' : `must be at least ${min} characters` });
      if (length > max) ctx.addIssue({ code: 'custom', message: `must be at most ${max} characters (got ${length})` });
      for (const message of textProblems(value, { multiline })) ctx.addIssue({ code: 'custom', message });
    });
  return withJsonRules(schema, { ...(min > 0 ? { minLength: min } : {}), maxLength: max });
}

/**
 * The problems of a list of short single-line entries (interests), each named by its position, so one
 * bad entry is found among many: "interest 2 must not ...".
 */
export function entryProblems(entries: readonly string[], noun: string): string[] {
  const out: string[] = [];
  entries.forEach((entry, i) => {
    if (!entry.isWellFormed()) {
      out.push(`${noun} ${i + 1} contains an invalid unicode sequence (lone surrogate)`);
      return;
    }
    for (const problem of textProblems(normalizeText(entry))) out.push(`${noun} ${i + 1} ${problem}`);
  });
  return out;
}
