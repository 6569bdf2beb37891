import { z } from 'zod';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const LIMIT_MESSAGE = `must be a whole number from 1 to ${MAX_LIMIT}`;
/** What a list says of a cursor it did not give out. */
export const BAD_CURSOR = 'is not a cursor this list gave out; use next_cursor unchanged, or start again without a cursor';

/** The `limit` of a list: a whole number 1–100 as query text, 20 when absent. */
export const limitParam = z
  .string()
  // Checked in a transform rather than by a regex, so the API document shows the integer and no string pattern.
  .transform((value, ctx) => {
    const limit = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
    if (limit >= 1 && limit <= MAX_LIMIT) return limit;
    ctx.addIssue({ code: 'custom', message: LIMIT_MESSAGE });
    return z.NEVER;
  })
  .default(DEFAULT_LIMIT);

/** The `cursor` of a list: the `next_cursor` of the page before, passed back unchanged. */
export const cursorParam = z.string().min(1, { error: BAD_CURSOR }).max(1024, { error: BAD_CURSOR }).optional();

/** `limit` and `cursor`, to spread into a list's query schema. */
export const pageParams = { limit: limitParam, cursor: cursorParam };

/** The query of a list that takes only `limit` and `cursor`. */
export const pageQuerySchema = z.strictObject(pageParams);
