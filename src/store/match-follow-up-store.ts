import type { Pool } from '../domain/pool.js';
import { keys, matchPartition, spectatorStreamKeys, userStreamKeys } from './keys.js';
import type { Scripts } from './scripts.js';

export type ListChange = 'add' | 'touch' | 'remove';

/**
 * The follow-up steps of matches and messages, each in one hash slot and idempotent: a match kept in step
 * in its users' and the pool's lists (lua/list_match.lua), an ended match's thread closed for each of its
 * readers (lua/close_thread.lua).
 */
export class MatchFollowUpStore {
  constructor(private readonly scripts: Scripts) {}

  async list(pool: Pool, matchId: number, users: readonly number[], change: Exclude<ListChange, 'remove'>, at: number): Promise<void> {
    const partition = matchPartition(matchId);
    await Promise.all([
      ...users.map((user) => this.scripts.runHot('list_match', [keys.userMatches(pool, user), keys.endedMatches(pool, user)], [matchId, change, at])),
      this.scripts.runHot('list_match', [keys.poolMatches(pool, partition), keys.poolEndedMatches(pool, partition)], [matchId, change, at]),
    ]);
  }

  /** Takes an ended match out of every list and closes its thread in every stream it was told to. */
  async close(pool: Pool, matchId: number, users: readonly number[]): Promise<void> {
    const partition = matchPartition(matchId);
    const closeFor = (keysOf: ReturnType<typeof spectatorStreamKeys>, list?: string) =>
      this.scripts.runHot('close_thread', [keysOf.endedMatches, keysOf.thread(matchId), keysOf.stream, ...(list ? [list] : [])], [matchId]);
    await Promise.all([
      ...users.map((user) => closeFor(userStreamKeys(pool, user), keys.userMatches(pool, user))),
      ...(pool === 'agent' ? [closeFor(spectatorStreamKeys())] : []),
      this.scripts.runHot('list_match', [keys.poolMatches(pool, partition), keys.poolEndedMatches(pool, partition)], [matchId, 'remove', 0]),
    ]);
  }
}
