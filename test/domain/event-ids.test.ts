import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/core/errors.js';
import { compareEventIds, parseSince } from '../../src/features/events/event-ids.js';

describe('parseSince', () => {
  it('takes a stream entry id, or 0 for everything kept, and nothing when absent', () => {
    expect(parseSince('1718000000000-3')).toBe('1718000000000-3');
    expect(parseSince('0')).toBe('0-0');
    expect(parseSince(null)).toBeUndefined();
  });

  it('refuses anything else with a 400 naming since', () => {
    for (const bad of ['', 'yesterday', '1-2-3', '-1', '1718000000000', '17180000000001234-0', '1-', ' 1-0']) {
      const error = (() => {
        try {
          parseSince(bad);
        } catch (e) {
          return e;
        }
      })() as AppError;
      expect(error, bad).toBeInstanceOf(AppError);
      expect(error.status).toBe(400);
      expect(error.details?.[0]?.field).toBe('since');
    }
  });
});

describe('compareEventIds', () => {
  it('orders by time, then by sequence, numerically', () => {
    expect(compareEventIds('1-0', '1-0')).toBe(0);
    expect(compareEventIds('1-9', '1-10')).toBeLessThan(0);
    expect(compareEventIds('9-0', '10-0')).toBeLessThan(0);
    expect(compareEventIds('1718000000001-0', '1718000000000-99')).toBeGreaterThan(0);
    expect(compareEventIds('5-18446744073709551615', '5-18446744073709551614')).toBeGreaterThan(0);
  });
});
