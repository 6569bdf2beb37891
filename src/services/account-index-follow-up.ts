import type { Pool } from '../domain/pool.js';
import { ACCOUNT_INDEXED, type AccountIndex, type AccountIndexedEffect } from '../store/account-index.js';
import type { Effect, FollowUpHandler } from './follow-ups.js';

/**
 * The follow-up of account writes: puts the account's entries into its index partition at the version
 * the write committed (idempotent, and never over a newer version's entries). UserRepository applies it
 * right after the commit; the outbox sweeper applies what a crash or an error left pending.
 */
export class AccountIndexFollowUp implements FollowUpHandler {
  readonly types = [ACCOUNT_INDEXED] as const;

  constructor(private readonly index: AccountIndex) {}

  async apply(pool: Pool, effect: Effect): Promise<void> {
    await this.index.apply(pool, effect as unknown as AccountIndexedEffect);
  }
}
