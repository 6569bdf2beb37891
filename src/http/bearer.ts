import { errors } from '../domain/errors.js';
import type { TokenService } from '../services/token-service.js';
import type { Auth } from './types.js';

/** Reads `Authorization: Bearer <token>` and verifies it. */
export function bearerAuthenticator(tokens: TokenService) {
  return (authorization: string | undefined): Auth | Promise<Auth> => {
    if (!authorization) throw errors.unauthorized();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw errors.unauthorized('The Authorization header must be "Bearer <token>".');
    return tokens.verify(match[1]!);
  };
}
