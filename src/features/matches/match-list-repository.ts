import type { Pool } from '../../platform/core/pool.js';
import { DAY_MS } from '../../platform/core/dates.js';
import { keys, matchPartition } from '../../platform/redis/keys.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';

/** lua/list_match-2.lua: how many entries the call changed. */
const listMatch = script('list_match', Number);

export type ListChange = 'add' | 'touch' | 'remove';

/**
 * The outbox steps of matches and messages, each in one hash slot and idempotent: a match kept in step
 * in its users' and the pool's lists (lua/list_match-2.lua). An ended match's thread needs no step: it was
 * closed with the unmatch, and the events that refer to its messages are skipped from then on.
 */
export class MatchListRepository {
  constructor(
    private readonly scripts: Scripts,
    /** How long a list remembers an ended match, so that no late step lists it again. */
    private readonly endedGuardMs = DAY_MS,
    /**
     * How long a user's list remembers it: at least as long as its thread is kept for reports, so that the
     * user's leaving finds that thread to erase it.
     */
    private readonly userEndedMs = endedGuardMs,
  ) {}

  async list(pool: Pool, matchId: number, users: readonly number[], change: Exclude<ListChange, 'remove'>, at: number): Promise<void> {
    await this.everyList(pool, matchId, users, change, at);
  }

  /** Takes an ended match out of every list. */
  async close(pool: Pool, matchId: number, users: readonly number[]): Promise<void> {
    await this.everyList(pool, matchId, users, 'remove', 0);
  }

  private async everyList(pool: Pool, matchId: number, users: readonly number[], change: ListChange, at: number): Promise<void> {
    const partition = matchPartition(matchId);
    const userArgs = [matchId, change, at, Math.max(this.endedGuardMs, this.userEndedMs)];
    await Promise.all([
      ...users.map((user) => this.scripts.runAcknowledged(listMatch, [keys.userMatches(pool, user), keys.endedMatches(pool, user)], userArgs)),
      this.scripts.runAcknowledged(
        listMatch,
        [keys.poolMatches(pool, partition), keys.poolEndedMatches(pool, partition)],
        [matchId, change, at, this.endedGuardMs],
      ),
    ]);
  }
}
