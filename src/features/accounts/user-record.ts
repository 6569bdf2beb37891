import type { Pool } from '../../platform/core/pool.js';
import type { ProfileSource } from './profile.js';
import { decodeAccount } from './profile-cards.js';

/** An account as stored: its profile, and the pool, e-mail and password hash it signs in with. */
export type UserRecord = ProfileSource & { pool: Pool; email: string; passwordHash: string };

/** The account `id` of `pool` from its stored encoding. */
export function fromStored(pool: Pool, id: number, stored: string): UserRecord {
  return { ...decodeAccount(id, stored), pool };
}
