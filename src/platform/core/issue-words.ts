import type { z } from 'zod';

/** How a value's kind is named in a message. */
const KINDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
  undefined: 'absent',
};

/**
 * What was sent, for a refusal that says what is taken but not what came: "not a string", "not null",
 * "not 1.5" (a number is shown itself: "a number" would not say what is wrong with it).
 */
export function notWhatWasSent(value: unknown): string {
  if (typeof value === 'number') return `not ${value}`;
  return `not ${kindOf(value)}`;
}

/** The kind of a value as sent, in the words of KINDS. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a number';
  return KINDS[typeof value] ?? 'something else';
}

/** A bound's unit: characters of text, entries of a list, or nothing for a number. */
function bounded(origin: string, bound: number | bigint, side: 'least' | 'most'): string {
  if (origin === 'string') return `must be at ${side} ${bound} characters`;
  if (origin === 'array' || origin === 'set') return `must list at ${side} ${bound} entries`;
  return `must be at ${side} ${bound}`;
}

/**
 * A rule's refusal in this service's words, for a rule that names none of its own (every schema of the
 * API gives its own message where it can; this is the wording for the rest, so that no library text
 * reaches a client). Passed to zod's `safeParse` as its error map.
 */
export function inOurWords(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${KINDS[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return bounded(issue.origin, issue.minimum, 'least');
    case 'too_big':
      return bounded(issue.origin, issue.maximum, 'most');
    case 'invalid_format':
      return `is not a valid ${issue.format.replaceAll('_', ' ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has fields that are not known: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'is not in any of the accepted forms';
    default:
      return 'is not accepted';
  }
}
