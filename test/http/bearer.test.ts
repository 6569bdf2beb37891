import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/core/errors.js';
import { bearerToken } from '../../src/platform/http/bearer.js';

describe('bearer token parsing (HTTP and WebSocket)', () => {
  it('reads the token of "Bearer <token>", any case, trailing space allowed', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer   abc ')).toBe('abc');
    expect(bearerToken('BEARER abc')).toBe('abc');
  });

  it('answers undefined when there is no header, so the caller decides (401, or a query token on sockets)', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
  });

  it('refuses a header of another form with 401 unauthorized', () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'Token abc', 'abc']) {
      let thrown: unknown;
      try {
        bearerToken(header);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, header).toBeInstanceOf(AppError);
      expect((thrown as AppError).status).toBe(401);
      expect((thrown as AppError).message).toMatch(/Bearer <token>/);
    }
  });
});
