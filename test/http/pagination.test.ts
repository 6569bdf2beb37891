import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/core/errors.js';
import { validate } from '../../src/platform/core/validation.js';
import { decodeCursor, encodeCursor, pageQuerySchema, toPage } from '../../src/platform/http/pagination.js';

const parseLimit = (limit?: string) => validate(pageQuerySchema, { limit }, 'query').limit;

const isNumber = (v: unknown): v is number => typeof v === 'number';

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).details?.[0]?.field;
  }
  return undefined;
}

describe('pagination helpers', () => {
  it('round-trips a cursor through an opaque url-safe string', () => {
    const value = { at: 1_700_000_000_123, id: 42 };
    const cursor = encodeCursor(value);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(decodeCursor(cursor)).toEqual(value);
    expect(decodeCursor(encodeCursor(7), isNumber)).toBe(7);
  });

  it('refuses a cursor it did not give out with a 400 naming cursor', () => {
    for (const garbage of ['%%%', 'not json', 'bm90IGpzb24', '', encodeCursor('7')]) {
      expect(
        fieldOf(() => decodeCursor(garbage, isNumber)),
        garbage,
      ).toBe('cursor');
    }
  });

  it('parses limit: 1–100, default 20', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('100')).toBe(100);
    for (const bad of ['0', '101', '-1', '1.5', 'ten', '', '1e2'])
      expect(
        fieldOf(() => parseLimit(bad)),
        bad,
      ).toBe('limit');
    expect(validate(pageQuerySchema, {}, 'query')).toEqual({ limit: 20 });
    expect(fieldOf(() => validate(pageQuerySchema, { page: '2' }, 'query'))).toBe('page');
  });

  it('builds the list envelope', () => {
    expect(toPage({ items: [1], next: null })).toEqual({ items: [1], next_cursor: null });
    expect(toPage({ items: [1], next: 5 })).toEqual({ items: [1], next_cursor: encodeCursor(5) });
  });
});
