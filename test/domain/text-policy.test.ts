import { describe, expect, it } from 'vitest';
import { profileUpdateSchema, registrationSchema } from '../../src/features/accounts/account-schemas.js';
import { browseFilterFields } from '../../src/features/discovery/browse-schemas.js';
import { AppError } from '../../src/platform/core/errors.js';
import { newMessageSchema } from '../../src/features/matches/message-schemas.js';
import { MAX_COMBINING_MARKS, text, textProblems } from '../../src/platform/core/text.js';
import { validate } from '../../src/platform/core/validation.js';
import { z } from 'zod';

const acute = '\u0301';

describe('textProblems: what the text policy refuses, by class of character', () => {
  const refused: Array<[name: string, value: string, reason: RegExp]> = [
    ['right-to-left override', 'Ada\u202Egnp.exe', /bidirectional control characters \(found U\+202E\)/],
    ['left-to-right embedding', 'a\u202Ab', /bidirectional.*U\+202A/],
    ['pop directional formatting', 'a\u202Cb', /bidirectional.*U\+202C/],
    ['right-to-left isolate', 'a\u2067b', /bidirectional.*U\+2067/],
    ['pop directional isolate', 'a\u2069b', /bidirectional.*U\+2069/],
    ['left-to-right mark', 'a\u200Eb', /bidirectional.*U\+200E/],
    ['right-to-left mark', 'a\u200Fb', /bidirectional.*U\+200F/],
    ['Arabic letter mark', 'a\u061Cb', /bidirectional.*U\+061C/],
    ['zero-width space', 'a\u200Bb', /zero-width characters \(found U\+200B\)/],
    ['word joiner', 'a\u2060b', /zero-width.*U\+2060/],
    ['zero-width no-break space inside', 'a\uFEFFb', /zero-width.*U\+FEFF/],
    ['Mongolian vowel separator', 'a\u180Eb', /zero-width.*U\+180E/],
    ['zero-width joiner at the end', 'ab\u200D', /zero-width.*U\+200D not between two visible characters/],
    ['zero-width non-joiner beside a space', 'a \u200Cb', /zero-width.*U\+200C not between/],
    ['NUL', 'a\u0000b', /control characters \(found U\+0000\)/],
    ['escape', 'a\u001B[31mb', /control characters \(found U\+001B\)/],
    ['DEL', 'a\u007Fb', /control characters \(found U\+007F\)/],
    ['C1 control', 'a\u0085b', /control characters \(found U\+0085\)/],
    ['soft hyphen', 'in\u00ADvisible', /invisible format characters \(found U\+00AD\)/],
    ['invisible times', 'a\u2062b', /invisible format.*U\+2062/],
    ['interlinear annotation', 'a\uFFF9b', /invisible format.*U\+FFF9/],
    ['stray tag character', 'a\u{E0041}b', /invisible format.*U\+E0041/],
    ['line feed in a single line', 'a\nb', /single line/],
    ['tab in a single line', 'a\tb', /single line/],
    ['carriage return in a single line', 'a\rb', /single line/],
    ['line separator in a single line', 'a\u2028b', /single line/],
    [`${MAX_COMBINING_MARKS + 1} combining marks on one letter`, `e${acute.repeat(MAX_COMBINING_MARKS + 1)}`, /more than 4 combining marks/],
    ['thousands of combining marks', `Zalgo${'\u0336'.repeat(3000)}`, /more than 4 combining marks/],
    ['only a Hangul filler', '\u3164', /must not be blank/],
    ['only a braille blank', '\u2800\u2800', /must not be blank/],
    ['only combining marks', acute.repeat(3), /must not be blank/],
    ['only zero-width spaces', '\u200B\u200B', /must not be blank/],
  ];
  it.each(refused)('refuses %s', (_, value, reason) => {
    expect(textProblems(value)).toEqual(expect.arrayContaining([expect.stringMatching(reason)]));
  });

  const accepted: Array<[name: string, value: string]> = [
    ['plain text with spaces', 'Ada Lovelace'],
    ['no-break and ideographic spaces between words', 'Ada\u00A0Lovelace\u3000x'],
    ['Arabic', 'مرحبا بالعالم'],
    ['Hebrew with vowel points', 'שָׁלוֹם'],
    ['Vietnamese (two marks on a letter)', 'Tiếng Việt'],
    [`${MAX_COMBINING_MARKS} combining marks on one letter`, `e${acute.repeat(MAX_COMBINING_MARKS)}`],
    ['an emoji ZWJ sequence', '👩‍🚀 and ❤️‍🔥'],
    ['a skin-tone and keycap emoji', '👋🏽 1️⃣'],
    ['a subdivision flag (tag sequence)', 'from 🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ['a Persian word with a zero-width non-joiner', 'می‌خواهم'],
    ['a Devanagari conjunct with a zero-width joiner', 'क्‍ष'],
    ['a Hangul filler inside text', 'a\u3164b'],
  ];
  it.each(accepted)('accepts %s', (_, value) => {
    expect(textProblems(value)).toEqual([]);
  });

  it('keeps \\n and tabs only where lines are kept, and refuses other line breaks there', () => {
    expect(textProblems('line one\n\tline two', { multiline: true })).toEqual([]);
    expect(textProblems('a\rb', { multiline: true })).toEqual([expect.stringMatching(/use \\n for line breaks \(found U\+000D\)/)]);
    expect(textProblems('a\u2029b', { multiline: true })).toEqual([expect.stringMatching(/use \\n.*U\+2029/)]);
    expect(textProblems('a\u202Eb\n', { multiline: true })).toEqual([expect.stringMatching(/bidirectional/)]);
  });

  it('names each kind of problem once, with the first offending character', () => {
    expect(textProblems('\u202Ea\u202Db\u200Bc')).toEqual([
      'must not contain bidirectional control characters (found U+202E)',
      'must not contain zero-width characters (found U+200B)',
    ]);
  });
});

describe('text(): normalises, then applies the policy', () => {
  const parse = (schema: z.ZodType, value: unknown) => schema.safeParse(value);
  it('trims, NFC-normalises and turns CRLF into \\n where lines are kept', () => {
    expect(parse(text({ max: 100, multiline: true }), '  e\u0301\r\nx  ').data).toBe('é\nx');
    expect(parse(text({ max: 100 }), '\uFEFF Ada \u00A0').data).toBe('Ada');
  });
  it('refuses a blank-looking required value as empty or blank', () => {
    expect(parse(text({ min: 1, max: 10 }), '  ').error?.issues.map((i) => i.message)).toEqual(['must not be empty']);
    expect(parse(text({ min: 1, max: 10 }), '\u200B').success).toBe(false);
    expect(parse(text({ max: 10 }), '').data).toBe('');
  });
});

function failures(schema: z.ZodType, input: unknown, where: 'body' | 'query' = 'body'): Record<string, string[]> {
  try {
    validate(schema, input, where);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const out: Record<string, string[]> = {};
    for (const d of (error as AppError).details!) (out[d.field] ??= []).push(d.message);
    return out;
  }
  return {};
}

describe('every text field of accounts, messages and browse filters follows the policy', () => {
  const account = { email: 'ada@example.com', password: 'Sturdy-Pass-42', display_name: 'Ada', birthdate: '1990-05-17', gender: 'woman' };
  const bad = 'x\u202Ey';

  it.each(['display_name', 'bio', 'city', 'state'])('registration and profile update refuse it in %s, naming the field', (field) => {
    expect(failures(registrationSchema, { ...account, [field]: bad })[field]).toEqual([expect.stringMatching(/bidirectional/)]);
    expect(failures(profileUpdateSchema, { [field]: bad })[field]).toEqual([expect.stringMatching(/bidirectional/)]);
  });

  it('interests name the bad entry, as a list or a comma string', () => {
    expect(failures(registrationSchema, { ...account, interests: ['chess', 'ja\u200Bzz'] }).interests).toEqual([
      'interest 2 must not contain zero-width characters (found U+200B)',
    ]);
    expect(failures(profileUpdateSchema, { interests: 'chess, \u3164, go' }).interests).toEqual([
      'interest 2 must not be blank (it has no visible characters)',
    ]);
    expect(failures(profileUpdateSchema, { interests: 'chess, ja\nzz' }).interests).toEqual(['interest 2 must be a single line (no line breaks or tabs)']);
  });

  it('bios and message bodies keep \\n, other fields refuse it', () => {
    expect(validate(profileUpdateSchema, { bio: 'one\ntwo' }).bio).toBe('one\ntwo');
    expect(validate(newMessageSchema, { body: 'one\r\ntwo' }).body).toBe('one\ntwo');
    expect(failures(profileUpdateSchema, { display_name: 'one\ntwo' }).display_name).toEqual([expect.stringMatching(/single line/)]);
  });

  it('message bodies refuse bidi controls, zero-width-only text and stacked marks', () => {
    expect(failures(newMessageSchema, { body: 'hi \u2066there' }).body).toEqual([expect.stringMatching(/bidirectional/)]);
    expect(failures(newMessageSchema, { body: '\u200B\u200B' }).body).toEqual(expect.arrayContaining([expect.stringMatching(/blank/)]));
    expect(failures(newMessageSchema, { body: `a${'\u0300'.repeat(2000)}` }).body).toEqual([expect.stringMatching(/combining marks/)]);
  });

  it('browse text filters follow it too', () => {
    const filters = z.object(browseFilterFields);
    expect(failures(filters, { city: 'Lis\u202Ebon' }, 'query').city).toEqual([expect.stringMatching(/bidirectional/)]);
    expect(failures(filters, { state: '\u3164' }, 'query').state).toEqual([expect.stringMatching(/blank/)]);
    expect(failures(filters, { interests: 'chess,ja\u00ADzz' }, 'query').interests).toEqual([expect.stringMatching(/^interest 2 .*U\+00AD/)]);
  });
});
