import { AppError } from '../../platform/core/errors.js';
import type { Logger } from '../../platform/logger.js';
import { POOLS } from '../../platform/core/pool.js';
import type { Principal } from '../../platform/core/principal.js';
import { ALL_PARTITIONS } from '../../platform/redis/key-space.js';
import type { AccountService, Leaving, LeavingAccount, LeavingRepository } from '../accounts/index.js';
import type { MatchService } from '../matches/index.js';
import type { ErasureRepository } from './erasure-repository.js';

/**
 * Leaving (DELETE /api/v1/me): an account's erasure. The first step, in one script, marks the account
 * leaving and removes its profile (it can no longer log in or act, and is shown nowhere), and every token
 * of it is revoked in every process, its sockets closed. The rest runs in bounded, idempotent steps: its
 * webhooks; each current match ended exactly as an unmatch ends it (the other side and the spectators get
 * `match.ended`), but for its thread and read state, deleted rather than kept for reports; the threads of
 * its matches ended earlier and still kept for reports; the pair of everyone it swiped; its blocks, either way; every key of its
 * own; then its e-mail is free again and the marker goes. A crash mid-way leaves the marker, and
 * `finishInterrupted` (the sweeper) carries the erasure out again from the start.
 */
export class LeaveService implements Leaving {
  constructor(
    private readonly accounts: AccountService,
    private readonly leaving: LeavingRepository,
    private readonly matches: MatchService,
    private readonly erasure: ErasureRepository,
    private readonly logger: Logger,
  ) {}

  async leave(caller: Principal, password: string): Promise<void> {
    const account = await this.accounts.leave(caller, password);
    try {
      await this.erase(account);
    } catch (error) {
      // The account is gone already; what is left of it is the sweeper's to finish.
      this.logger.warn({ err: error, pool: account.pool, userId: account.id }, 'erasure interrupted; the sweeper will finish it');
    }
  }

  /** Finishes every erasure begun more than `olderThanMs` ago and not done (a crash, a lost Redis); returns how many. */
  async finishInterrupted(olderThanMs: number): Promise<number> {
    let finished = 0;
    const before = Date.now() - olderThanMs;
    for (const pool of POOLS) {
      for (const part of ALL_PARTITIONS) {
        for await (const account of this.leaving.begunBefore(pool, part, before)) {
          await this.erase(account);
          finished++;
        }
      }
    }
    return finished;
  }

  private async erase(account: LeavingAccount): Promise<void> {
    const { pool, id } = account;
    await this.accounts.endSessions({ pool, userId: id });
    // Before the matches end, so their last events queue no delivery to the account's own endpoints.
    await this.erasure.dropWebhooks(pool, id);
    for await (const matchIds of this.erasure.matchIds(pool, id)) {
      for (const matchId of matchIds) await this.unmatch({ pool, userId: id }, matchId);
    }
    // After the unmatches above, whose outbox steps add their matches to the ended set walked here.
    for await (const matchIds of this.erasure.endedMatchIds(pool, id)) await this.erasure.dropEndedThreads(pool, matchIds);
    for await (const others of this.erasure.swiped(pool, id)) await this.erasure.dropPairs(pool, id, others);
    for await (const others of this.erasure.separated(pool, id)) await this.erasure.dropBlocks(pool, id, others);
    await this.erasure.dropOwnKeys(pool, id);
    await this.erasure.dropRankTraits(pool, id);
    await this.leaving.releaseEmail(account);
    await this.leaving.finish(account);
  }

  /** Ends a match as its user's unmatch does, its thread deleted; one that has ended already (or is unknown) is left as it is. */
  private async unmatch(caller: Principal, matchId: number): Promise<void> {
    try {
      await this.matches.unmatch(caller, matchId, { eraseThread: true });
    } catch (error) {
      if (!(error instanceof AppError && (error.status === 404 || error.status === 410))) throw error;
    }
  }
}
