import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { birthRange, browseFilterFields, normalizePlace } from '../../src/features/discovery/browse-schemas.js';
import { ageOn } from '../../src/platform/core/dates.js';

const schema = z.strictObject(browseFilterFields);
const now = new Date('2026-03-15T12:00:00Z');
const ymd = (n: number) => `${String(n).slice(0, 4)}-${String(n).slice(4, 6)}-${String(n).slice(6, 8)}`;

describe('browse filters', () => {
  it('normalise lists and places', () => {
    const parsed = schema.parse({ gender: 'Woman, man,woman', interests: ' Board  Games,CHESS', city: '  New   YORK ', state: 'NY' });
    expect(parsed.gender).toEqual(['woman', 'man']);
    expect(parsed.interests).toEqual(['board games', 'chess']);
    expect(parsed.city).toBe('new york');
    expect(parsed.interests_mode).toBe('any');
    expect(normalizePlace(' Lisboa ')).toBe('lisboa');
  });

  it('refuse what is not a valid value', () => {
    const result = schema.safeParse({ age: '17', min_age: '1e2', gender: 'robot', interests: ' , ', interests_mode: 'most', city: ' ' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path[0]).sort()).toEqual(['age', 'city', 'gender', 'interests', 'interests_mode', 'min_age']);
  });

  it('turn ages into an inclusive birthdate range', () => {
    expect(birthRange({}, now)).toBeUndefined();
    const exactly30 = birthRange({ age: 30 }, now)!;
    // born 1996-03-15 is 30 today; born 1995-03-15 turned 31 today
    expect(exactly30).toEqual({ min: 19950316, max: 19960315 });
    expect(ageOn(ymd(exactly30.min), now)).toBe(30);
    expect(ageOn(ymd(exactly30.max), now)).toBe(30);
    const range = birthRange({ min_age: 25, max_age: 40 }, now)!;
    expect(ageOn(ymd(range.max), now)).toBe(25);
    expect(ageOn(ymd(range.min), now)).toBe(40);
    expect(birthRange({ min_age: 40, age: 30 }, now)!.min).toBeGreaterThan(birthRange({ min_age: 40, age: 30 }, now)!.max);
  });
});
