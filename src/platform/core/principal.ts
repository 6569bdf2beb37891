import type { Pool } from './pool.js';

/** Who is calling: an account and the pool it belongs to. */
export type Principal = { userId: number; pool: Pool };

/**
 * A principal as a verified bearer token carries it: also the token's id, its expiry (seconds since epoch)
 * and the credentials epoch of its account when it was issued (it holds only while that is still the account's).
 */
export type TokenPrincipal = Principal & { jti: string; exp: number; epoch: number };
