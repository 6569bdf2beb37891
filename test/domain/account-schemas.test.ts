import { describe, expect, it } from 'vitest';
import { registrationSchema } from '../../src/features/accounts/account-schemas.js';
import { latestBirthdateForAge } from '../../src/platform/core/dates.js';
import { AppError } from '../../src/platform/core/errors.js';
import { validate } from '../../src/platform/core/validation.js';

const valid = {
  email: 'ada@example.com',
  password: 'Sturdy-Pass-42',
  display_name: 'Ada',
  birthdate: '1990-05-17',
  gender: 'woman',
};

function failures(input: Record<string, unknown>): Record<string, string> {
  try {
    validate(registrationSchema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return Object.fromEntries((error as AppError).details!.map((d) => [d.field, d.message]));
  }
  return {};
}

// Each rule of the registration fields: one passing and one failing value.
const rules: Array<[field: string, passing: unknown, failing: unknown, message: RegExp]> = [
  ['email', 'Name.Surname+tag@Example.org', 'not-an-email', /e-mail address/],
  ['email', 'a@b.co', 42, /must be a string/],
  ['password', 'Abcdefgh1!', 'Abcdef1!', /at least 10 characters/],
  ['password', 'Abcdefgh1!', 'abcdefgh1!', /uppercase/],
  ['password', 'Abcdefgh1!', 'Abcdefghi!', /digit/],
  ['password', 'Abcdefgh1!', 'Abcdefgh12', /symbol/],
  ['display_name', 'Z', '', /must not be empty/],
  ['display_name', 'x'.repeat(50), 'x'.repeat(51), /at most 50/],
  ['display_name', '🤖'.repeat(50), '🤖'.repeat(51), /at most 50/],
  ['display_name', 'Ada', 'Ada\u0000Bot', /control characters/],
  ['display_name', 'Ada', 'bad\ud800', /lone surrogate/],
  ['birthdate', '2000-02-29', '2023-02-30', /real calendar date/],
  ['birthdate', '1990-01-01', '1990-1-1', /YYYY-MM-DD/],
  ['birthdate', latestBirthdateForAge(18), '2020-01-01', /at least 18 years/],
  ['birthdate', '1950-12-31', '1850-01-01', /1900 or later/],
  ['gender', 'nonbinary', 'robot', /one of man, woman, nonbinary, other/],
  ['bio', 'x'.repeat(2000), 'x'.repeat(2001), /at most 2000/],
  ['interests', 'chess, jazz', 'x'.repeat(41), /at most 40 characters/],
  ['interests', 'a,b', Array.from({ length: 31 }, (_, i) => `i${i}`).join(','), /at most 30 interests/],
  ['interests', 'a', 7, /comma-separated/],
  ['city', 'Lisbon', 'x'.repeat(101), /at most 100/],
  ['state', 'Lisboa', 'x'.repeat(101), /at most 100/],
  ['theme_id', 6, 7, /integer from 1 to 6/],
  ['theme_id', 1, 1.5, /integer from 1 to 6/],
  ['theme_id', 3, '3', /integer from 1 to 6/],
];

describe('registration rules', () => {
  it.each(rules)('%s accepts %j and refuses %j', (field, passing, failing, message) => {
    expect(failures({ ...valid, [field]: passing })).toEqual({});
    expect(failures({ ...valid, [field]: failing })[field]).toMatch(message);
  });

  it('names the password rules that failed, and only those, then every rule', () => {
    const rules = 'a password needs at least 10 characters, an uppercase letter, a digit and a symbol';
    expect(failures({ ...valid, password: 'abcdefgh1!' }).password).toBe(`has no uppercase letter: ${rules}`);
    expect(failures({ ...valid, password: 'Abcdefghij' }).password).toBe(`has no digit, has no symbol (such as !?#%): ${rules}`);
    expect(failures({ ...valid, password: 'Ab1!' }).password).toBe(`is too short (4 of at least 10 characters): ${rules}`);
  });

  it.each(['email', 'password', 'display_name', 'birthdate', 'gender'])('requires %s', (field) => {
    const input: Record<string, unknown> = { ...valid };
    delete input[field];
    expect(failures(input)[field]).toBe('is required');
  });

  it('lists every failing field, not only the first', () => {
    const problems = failures({ email: 'x', password: 'short', display_name: '', birthdate: 'nope', gender: 'x', theme_id: 0, extra: 1 });
    expect(Object.keys(problems).sort()).toEqual(['birthdate', 'display_name', 'email', 'extra', 'gender', 'password', 'theme_id']);
  });

  it('normalises e-mail, names and interests', () => {
    const out = validate(registrationSchema, { ...valid, email: '  Ada@Example.COM ', display_name: ' Ada ', interests: ' Chess ,JAZZ   music,, chess ' });
    expect(out.email).toBe('ada@example.com');
    expect(out.display_name).toBe('Ada');
    expect(out.interests).toEqual(['chess', 'jazz music']);
  });
});
