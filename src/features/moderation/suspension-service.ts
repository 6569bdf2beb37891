import { errors } from '../../platform/core/errors.js';
import type { Pool } from '../../platform/core/pool.js';
import type { PubSub } from '../../platform/redis/pubsub.js';
import type { SuspensionRepository, TokenService, UserRepository } from '../accounts/index.js';

/** An account's standing as operators read it. */
export type AccountStanding = { pool: Pool; id: number; suspended: boolean; since: string | null; reason: string | null };

/**
 * Operators suspend and lift accounts. A suspended account is out of browse and every feed, every token
 * of it issued before is refused in every process (403 account_suspended, its sockets closed), its login is refused,
 * and the spectator page shows none of its matches; lifting puts it back (it logs in again).
 */
export class SuspensionService {
  constructor(
    private readonly suspensions: SuspensionRepository,
    private readonly users: UserRepository,
    private readonly tokens: TokenService,
    private readonly pubsub: PubSub,
  ) {}

  /** The account's standing; 404 when the pool holds no such account. */
  async standing(pool: Pool, id: number): Promise<AccountStanding> {
    const [exists, suspension] = await Promise.all([this.users.exists(pool, id), this.suspensions.find(pool, id)]);
    if (!exists) throw notFound();
    return { pool, id, suspended: suspension !== null, since: suspension?.since ?? null, reason: suspension?.reason ?? null };
  }

  /**
   * Suspends the account (an account suspended already keeps its first record); it is announced again
   * either way, so a suspension interrupted before its announcement is completed by asking again.
   */
  async suspend(pool: Pool, id: number, reason: string | null, now = new Date()): Promise<AccountStanding> {
    const done = await this.suspensions.suspend(pool, id, { since: now.toISOString(), reason });
    if (!done) throw notFound();
    await this.tokens.announce({ pool, userId: id }, { state: 'suspended', epoch: done.epoch }, this.pubsub);
    return this.standing(pool, id);
  }

  /** Lifts the account's suspension (nothing to do when it is not suspended); 404 when there is no such account. */
  async lift(pool: Pool, id: number): Promise<AccountStanding> {
    const done = await this.suspensions.lift(pool, id);
    if (!done) throw notFound();
    await this.tokens.announce({ pool, userId: id }, { state: 'active', epoch: done.epoch }, this.pubsub);
    return { pool, id, suspended: false, since: null, reason: null };
  }
}

const notFound = () => errors.notFound('account in this pool with this id');
