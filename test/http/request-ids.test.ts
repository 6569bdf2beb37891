import { describe, expect, it } from 'vitest';
import { RequestIds } from '../../src/platform/http/request-ids.js';

describe('request ids', () => {
  it('keeps a sane client id as it is', () => {
    expect(new RequestIds().next('abc-123.x_Y')).toBe('abc-123.x_Y');
  });

  it('replaces a missing, empty, too long or odd id with a process-prefixed counter', () => {
    const ids = new RequestIds();
    const made = [undefined, '', 'x'.repeat(65), 'a b', 'ok\n', 'é'].map((given) => ids.next(given));
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/);
    expect(new Set(made).size).toBe(made.length);
    expect(new Set(made.map((id) => id.split('-')[0])).size).toBe(1);
  });

  it('gives each process (each instance) its own prefix', () => {
    const prefixes = new Set(Array.from({ length: 5 }, () => new RequestIds().next(undefined).split('-')[0]));
    expect(prefixes.size).toBeGreaterThan(1);
  });
});
