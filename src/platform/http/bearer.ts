import { errors } from '../core/errors.js';
import type { TokenPrincipal } from '../core/principal.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The token of an `Authorization: Bearer <token>` header: undefined when the header is absent or empty,
 * a 401 when it is there but not of that form. Shared by HTTP requests and WebSocket upgrades.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = BEARER.exec(authorization);
  if (!match) throw errors.unauthorized('The Authorization header must be "Bearer <token>".');
  return match[1]!;
}

/** What checks a bearer token: the accounts' token service. */
export type TokenVerifier = { verify(token: string): TokenPrincipal | Promise<TokenPrincipal> };

/** Reads `Authorization: Bearer <token>` and verifies it. */
export function bearerAuthenticator(tokens: TokenVerifier) {
  return (authorization: string | undefined): TokenPrincipal | Promise<TokenPrincipal> => {
    const token = bearerToken(authorization);
    if (!token) throw errors.unauthorized();
    return tokens.verify(token);
  };
}
