import { z } from 'zod';

export const ID_MESSAGE = 'must be a positive integer id';

/** The text of an id as a URL carries it: digits, no leading zero, at most 16 of them. */
const ID_TEXT = /^[1-9]\d{0,15}$/;

/**
 * A record's id (a user's, a match's): a positive safe integer, given as a number or as its decimal text
 * (as a path carries it). Its JSON Schema is the integer.
 */
export const idSchema = z.preprocess(
  (value) => (typeof value === 'string' && ID_TEXT.test(value) ? Number(value) : value),
  z.number({ error: ID_MESSAGE }).int({ error: ID_MESSAGE }).min(1, { error: ID_MESSAGE }).max(Number.MAX_SAFE_INTEGER, { error: ID_MESSAGE }),
);

/**
 * The id an id's text names, or undefined when the text is not one (what `idSchema` takes from a string,
 * without going through it: a path's id is read on every request that carries one).
 */
export function idOfText(value: string | undefined): number | undefined {
  if (value === undefined || !ID_TEXT.test(value)) return undefined;
  const id = Number(value);
  return id <= Number.MAX_SAFE_INTEGER ? id : undefined;
}
