import { describe, expect, it } from 'vitest';
import { ageOn, latestBirthdateForAge, parseCalendarDate } from '../../src/platform/core/dates.js';
import { normalizeInterests, sharedInterests } from '../../src/features/accounts/interest-schemas.js';

describe('interests', () => {
  it('trims, lower-cases, collapses spaces and drops empty and duplicate entries', () => {
    expect(normalizeInterests('  Board   Games, chess,,CHESS ,  ')).toEqual(['board games', 'chess']);
    expect(normalizeInterests(['Jazz', 'jazz '])).toEqual(['jazz']);
  });
  it('finds the shared ones in the first list order', () => {
    expect(sharedInterests(['a', 'b', 'c'], ['c', 'a'])).toEqual(['a', 'c']);
  });
});

describe('dates', () => {
  it('accepts real calendar dates only', () => {
    expect(parseCalendarDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseCalendarDate('2023-02-29')).toBeUndefined();
    expect(parseCalendarDate('2023-13-01')).toBeUndefined();
    expect(parseCalendarDate('2023-00-10')).toBeUndefined();
    expect(parseCalendarDate('20230101')).toBeUndefined();
  });
  it('computes whole years of age', () => {
    const now = new Date('2026-05-17T12:00:00Z');
    expect(ageOn('1990-05-17', now)).toBe(36);
    expect(ageOn('1990-05-18', now)).toBe(35);
    expect(latestBirthdateForAge(18, now)).toBe('2008-05-17');
    expect(latestBirthdateForAge(18, new Date('2028-02-29T00:00:00Z'))).toBe('2010-02-28');
  });
});
