import { z } from 'zod';
import { GENDERS, type Gender } from '../accounts/account-schemas.js';
import { latestBirthdateForAge } from '../../platform/core/dates.js';
import { pageParams, wholeNumberText } from '../../platform/core/page-params.js';
import { interestEntries, MAX_INTEREST_LENGTH, MAX_INTERESTS, normalizeInterests } from '../accounts/interest-schemas.js';
import { entryProblems, normalizeText, textProblems } from '../../platform/core/text.js';
import { withJsonRules } from '../../platform/core/json-rules.js';

export const MAX_FILTER_AGE = 150;
const MIN_FILTER_AGE = 18;
const AGE_MESSAGE = `must be a whole number from ${MIN_FILTER_AGE} to ${MAX_FILTER_AGE}`;
/** A text filter: one piece of text. */
const queryText = () => z.string({ error: 'must be one piece of text' });

/**
 * A list filter: a list of strings, or one comma-separated string (as a query string carries it; a
 * parameter given more than once arrives joined with commas). Its JSON Schema is the list.
 */
const commaList = (error: string) => z.preprocess(listEntries, z.array(z.string({ error }), { error }));

/** A comma-separated string's parts; a list's items, each string split at its commas; anything else as it is. */
function listEntries(value: unknown): unknown {
  if (typeof value === 'string') return value.split(',');
  if (!Array.isArray(value)) return value;
  return (value as unknown[]).flatMap((entry) => (typeof entry === 'string' ? entry.split(',') : [entry]));
}

/** The form city and state are indexed and matched in: case-insensitive, white space collapsed. */
export function normalizePlace(value: string): string {
  return value.normalize('NFC').trim().toLowerCase().replace(/\s+/gu, ' ');
}

/** A birthdate `YYYY-MM-DD` as the integer YYYYMMDD (as browse filters and roster codes compare it). */
export const birthdateNumber = (birthdate: string): number => Number(birthdate.replaceAll('-', ''));

/** An age in whole years, as a number or its text. Its JSON Schema is the integer. */
const age = z.preprocess(
  wholeNumberText,
  z.number({ error: AGE_MESSAGE }).int({ error: AGE_MESSAGE }).min(MIN_FILTER_AGE, { error: AGE_MESSAGE }).max(MAX_FILTER_AGE, { error: AGE_MESSAGE }),
);

const GENDER_MESSAGE = `must be one or more of ${GENDERS.join(', ')}: a list, or one comma-separated string`;

const genderList = commaList(GENDER_MESSAGE)
  .transform((list) => [...new Set(list.map((g) => g.trim().toLowerCase()).filter(Boolean))])
  .superRefine((list, ctx) => {
    const unknown = list.filter((g) => !(GENDERS as readonly string[]).includes(g));
    if (list.length === 0 || unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be one or more of ${GENDERS.join(', ')}, comma-separated${unknown.length ? ` (got ${unknown.join(', ')})` : ''}`,
      });
    }
  })
  .transform((list) => list as Gender[]);

const interestList = withJsonRules(
  commaList('must be a list of interests, or one comma-separated string such as "chess, jazz"')
    .superRefine((value, ctx) => {
      for (const message of entryProblems(interestEntries(value), 'interest')) ctx.addIssue({ code: 'custom', message });
    })
    .transform((value) => normalizeInterests(value))
    .superRefine((list, ctx) => {
      if (list.length === 0) ctx.addIssue({ code: 'custom', message: 'must list at least one interest, comma-separated' });
      if (list.length > MAX_INTERESTS) ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_INTERESTS} interests` });
      if (list.some((entry) => [...entry].length > MAX_INTEREST_LENGTH)) {
        ctx.addIssue({ code: 'custom', message: `each interest must be at most ${MAX_INTEREST_LENGTH} characters` });
      }
    }),
  { minItems: 1, maxItems: MAX_INTERESTS, items: { maxLength: MAX_INTEREST_LENGTH } },
);

const place = withJsonRules(
  queryText()
    .superRefine((value, ctx) => {
      if (!value.isWellFormed()) ctx.addIssue({ code: 'custom', message: 'contains an invalid unicode sequence (lone surrogate)' });
      else for (const message of textProblems(normalizeText(value))) ctx.addIssue({ code: 'custom', message });
    })
    .transform(normalizePlace)
    .superRefine((value, ctx) => {
      if (value.length === 0 || [...value].length > 100) ctx.addIssue({ code: 'custom', message: 'must be 1 to 100 characters of text' });
    }),
  { minLength: 1, maxLength: 100 },
);

/** The browse filters (without paging), every one optional and combined with AND; features/discovery/browse-api.ts documents them. */
export const browseFilterFields = {
  min_age: age.optional(),
  max_age: age.optional(),
  age: age.optional(),
  gender: genderList.optional(),
  interests: interestList.optional(),
  interests_mode: z.enum(['any', 'all'], { error: 'must be any or all' }).default('any'),
  city: place.optional(),
  state: place.optional(),
};

export type BrowseFilters = z.output<z.ZodObject<typeof browseFilterFields>>;

/** Refuses a min_age above max_age (added to the route's query schema with `.superRefine`). */
export function checkAgeRange(value: { min_age?: number; max_age?: number }, ctx: z.RefinementCtx) {
  if (value.min_age !== undefined && value.max_age !== undefined && value.min_age > value.max_age) {
    ctx.addIssue({ code: 'custom', path: ['max_age'], message: 'must be at least min_age' });
  }
}

/** The query of `GET /discovery/browse`: the filters and paging; features/discovery/browse-api.ts describes each field. */
export const browseQuerySchema = z.strictObject({ ...browseFilterFields, ...pageParams }).superRefine(checkAgeRange);

/** The birthdates (as YYYYMMDD numbers, inclusive) of the ages the filters allow; undefined when unfiltered. */
export function birthRange(filters: Pick<BrowseFilters, 'min_age' | 'max_age' | 'age'>, now = new Date()) {
  const lowest = [filters.max_age, filters.age].filter((a) => a !== undefined);
  const highest = [filters.min_age, filters.age].filter((a) => a !== undefined);
  if (lowest.length === 0 && highest.length === 0) return undefined;
  // Someone is at most A years old when born after the latest birthdate of an (A+1)-year-old.
  const min = lowest.length ? Math.max(...lowest.map((a) => birthdateNumber(latestBirthdateForAge(a + 1, now)) + 1)) : 0;
  const max = highest.length ? Math.min(...highest.map((a) => birthdateNumber(latestBirthdateForAge(a, now)))) : 99_999_999;
  return { min, max };
}
