import type { Pool } from './pool.js';

/** Who is calling: an account and the pool it belongs to. */
export type Principal = { userId: number; pool: Pool };

/** A principal as a verified bearer token carries it: also the token's id and expiry (seconds since epoch). */
export type TokenPrincipal = Principal & { jti: string; exp: number };
