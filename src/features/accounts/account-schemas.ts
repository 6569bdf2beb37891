import { z } from 'zod';
import { latestBirthdateForAge, parseCalendarDate } from '../../platform/core/dates.js';
import { interestEntries, MAX_INTEREST_LENGTH, MAX_INTERESTS, normalizeInterests } from './interest-schemas.js';
import { withJsonRules } from '../../platform/core/json-rules.js';
import { entryProblems, text } from '../../platform/core/text.js';

export const GENDERS = ['man', 'woman', 'nonbinary', 'other'] as const;
export const MIN_AGE = 18;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

const email = withJsonRules(
  z
    .string({ error: 'must be a string' })
    .trim()
    .toLowerCase()
    .max(254, { error: 'must be at most 254 characters' })
    .pipe(z.email({ error: 'must be an e-mail address such as name@example.com' })),
  { format: 'email' },
);

const PASSWORD_RULES = `at least ${PASSWORD_MIN} characters, an uppercase letter, a digit and a symbol`;
const UPPERCASE = /\p{Lu}/u;
const DIGIT = /\d/u;
const SYMBOL = /[^\p{L}\p{N}\s]/u;
/** The three kinds of character, as one JSON Schema pattern (lookaheads, read with the `u` flag). */
const PASSWORD_PATTERN = `^${[UPPERCASE, DIGIT, SYMBOL].map((kind) => `(?=[\\s\\S]*${kind.source})`).join('')}`;

/** Names only the rules the password breaks, then all of them. Characters are code points, as everywhere. */
const password = withJsonRules(
  z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
    const broken: string[] = [];
    const length = [...value].length;
    if (length < PASSWORD_MIN) broken.push(`is too short (${length} of at least ${PASSWORD_MIN} characters)`);
    if (!UPPERCASE.test(value)) broken.push('has no uppercase letter');
    if (!DIGIT.test(value)) broken.push('has no digit');
    if (!SYMBOL.test(value)) broken.push('has no symbol (such as !?#%)');
    if (broken.length > 0) ctx.addIssue({ code: 'custom', message: `${broken.join(', ')}: a password needs ${PASSWORD_RULES}` });
    if (length > PASSWORD_MAX) ctx.addIssue({ code: 'custom', message: `must be at most ${PASSWORD_MAX} characters` });
  }),
  { minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, pattern: PASSWORD_PATTERN },
);

export const birthdate = withJsonRules(
  z
    .string({ error: 'must be a string in the form YYYY-MM-DD' })
    .superRefine((value, ctx) => {
      const date = parseCalendarDate(value);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: 'must be a real calendar date in the form YYYY-MM-DD, such as 1990-04-21' });
        return;
      }
      if (date.year < 1900) ctx.addIssue({ code: 'custom', message: 'must be in 1900 or later' });
      else if (value > latestBirthdateForAge(MIN_AGE)) {
        ctx.addIssue({ code: 'custom', message: `must be at least ${MIN_AGE} years before today` });
      }
    })
    .describe(`A real calendar date (YYYY-MM-DD), in 1900 or later and at least ${MIN_AGE} years before today.`),
  { format: 'date' },
);

const gender = z.enum(GENDERS, { error: `must be one of ${GENDERS.join(', ')}` });

const INTEREST_BOUNDS = `at most ${MAX_INTERESTS} interests, each at most ${MAX_INTEREST_LENGTH} characters (counted once trimmed and given their canonical names)`;

export const interests = z
  .union(
    [
      z.string().describe(`Comma-separated: ${INTEREST_BOUNDS}.`),
      withJsonRules(z.array(z.string()).describe(`A list: ${INTEREST_BOUNDS}.`), { maxItems: MAX_INTERESTS, items: { maxLength: MAX_INTEREST_LENGTH } }),
    ],
    { error: 'must be a comma-separated string such as "chess, jazz", or a list of strings' },
  )
  .superRefine((value, ctx) => {
    for (const message of entryProblems(interestEntries(value), 'interest')) ctx.addIssue({ code: 'custom', message });
  })
  .transform((value) => normalizeInterests(value))
  .superRefine((list, ctx) => {
    if (list.length > MAX_INTERESTS) ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_INTERESTS} interests` });
    const long = list.find((entry) => [...entry].length > MAX_INTEREST_LENGTH);
    if (long) ctx.addIssue({ code: 'custom', message: `each interest must be at most ${MAX_INTEREST_LENGTH} characters` });
  });

const themeId = z
  .number({ error: 'must be an integer from 1 to 6' })
  .int({ error: 'must be an integer from 1 to 6' })
  .min(1, { error: 'must be an integer from 1 to 6' })
  .max(6, { error: 'must be an integer from 1 to 6' });

const profileFields = {
  display_name: text({ min: 1, max: 50 }),
  birthdate,
  gender,
  bio: text({ max: 2000, multiline: true }).optional(),
  interests: interests.optional(),
  city: text({ max: 100 }).optional(),
  state: text({ max: 100 }).optional(),
  theme_id: themeId.optional(),
};

export const registrationSchema = z.strictObject({ email, password, ...profileFields });

/** The current password as typed: checked against the stored hash, so only its size (in characters) is limited here. */
const currentPassword = withJsonRules(
  z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
    const length = [...value].length;
    if (length === 0) ctx.addIssue({ code: 'custom', message: 'must not be empty' });
    if (length > PASSWORD_MAX) ctx.addIssue({ code: 'custom', message: `must be at most ${PASSWORD_MAX} characters` });
  }),
  { minLength: 1, maxLength: PASSWORD_MAX },
);

export const loginSchema = z.strictObject({
  email: z.string({ error: 'must be a string' }).trim().toLowerCase().min(1, { error: 'must not be empty' }).max(254),
  password: currentPassword,
  pool: z
    .enum(['agent', 'member'], { error: 'must be agent or member' })
    .optional()
    .describe('Which pool the account is in: e-mails are a namespace per pool. Without it, the agent account of the e-mail is tried, then its member account.'),
});

export const passwordChangeSchema = z.strictObject({ current_password: currentPassword, new_password: password });

/** DELETE /api/v1/me: the account's password, confirming that it is to be erased. */
export const leaveSchema = z.strictObject({ password: currentPassword });

export const logoutQuerySchema = z.strictObject({
  all: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});

export const profileUpdateSchema = z.strictObject({
  display_name: profileFields.display_name.optional(),
  birthdate: birthdate.optional(),
  gender: gender.optional(),
  bio: profileFields.bio,
  interests: profileFields.interests,
  city: profileFields.city,
  state: profileFields.state,
  theme_id: profileFields.theme_id,
});

export type Registration = z.output<typeof registrationSchema>;
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;
export type PasswordChange = z.output<typeof passwordChangeSchema>;
export type Gender = (typeof GENDERS)[number];
