import { z } from 'zod';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const LIMIT_MESSAGE = `must be a whole number from 1 to ${MAX_LIMIT}`;
/** What a list says of a cursor it did not give out. */
export const BAD_CURSOR = 'is not a cursor this list gave out; use next_cursor unchanged, or start again without a cursor';

/** A whole number given as itself or as its decimal text (as a query string carries it); any other value is left to be refused. */
export const wholeNumberText = (value: unknown): unknown => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value);

/** The `limit` of a list: a whole number 1–100, as a number or its text (a query string's), 20 when absent. Its JSON Schema is the integer. */
export const limitParam = z
  .preprocess(
    wholeNumberText,
    z.number({ error: LIMIT_MESSAGE }).int({ error: LIMIT_MESSAGE }).min(1, { error: LIMIT_MESSAGE }).max(MAX_LIMIT, { error: LIMIT_MESSAGE }),
  )
  .default(DEFAULT_LIMIT);

/** The `cursor` of a list: the `next_cursor` of the page before, passed back unchanged. */
export const cursorParam = z.string({ error: BAD_CURSOR }).min(1, { error: BAD_CURSOR }).max(1024, { error: BAD_CURSOR }).optional();

/** `limit` and `cursor`, to spread into a list's query schema. */
export const pageParams = { limit: limitParam, cursor: cursorParam };

/** The query of a list that takes only `limit` and `cursor`. */
export const pageQuerySchema = z.strictObject(pageParams);
