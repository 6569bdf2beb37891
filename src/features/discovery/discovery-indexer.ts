import type { Logger } from '../../platform/logger.js';
import type { UserRecord } from '../accounts/index.js';
import type { ProfileListener } from '../accounts/index.js';
import type { RankingScheduler } from './feed-ranker.js';

/**
 * Keeps feed ranking in step with accounts: a new account, or one whose interests, gender or birthdate changed, gets a ranking
 * job. (The browse and ranking indexes follow every account write, see UserRepository and AccountIndex.)
 */
export class DiscoveryIndexer implements ProfileListener {
  constructor(
    private readonly scheduler: RankingScheduler,
    private readonly logger: Logger,
  ) {}

  async profileSaved(user: UserRecord, previous?: UserRecord): Promise<void> {
    // What the ranking reads of the account itself: its interests, gender and age.
    if (previous && sameInterests(previous.interests, user.interests) && previous.gender === user.gender && previous.birthdate === user.birthdate) return;
    try {
      await this.scheduler.schedule(user.pool, user.id);
    } catch (error) {
      // The account is saved and indexed; its feed is ranked on first read, and a worker starting later
      // ranks every feed never ranked.
      this.logger.warn({ err: (error as Error).message, userId: user.id }, 'could not schedule feed ranking');
    }
  }
}

function sameInterests(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((interest) => b.includes(interest));
}
