import type { RedisClient } from './redis.js';
import type { Pool } from '../domain/pool.js';
import { indexPartition } from './key-space.js';
import { keys, matchPartition, spectatorStreamKeys, userStreamKeys } from './keys.js';
import type { Scripts } from './scripts.js';

export type ListChange = 'add' | 'touch' | 'remove';

/**
 * The follow-up steps of swipes, matches and messages, each in one hash slot and idempotent: a swipe
 * applied to the swiper's own keys (lua/project_swipe.lua), a match kept in step in its users' and the
 * pool's lists (lua/list_match.lua), an ended match's thread closed for each of its readers
 * (lua/close_thread.lua).
 */
export class MatchFollowUpStore {
  constructor(private readonly redis: RedisClient, private readonly scripts: Scripts) {}

  /** The target into the swiper's swipes and out of its feed; a feed that lost an entry has room: its floor drops to 0. */
  async projectSwipe(pool: Pool, fromId: number, toId: number, kind: string): Promise<void> {
    const removed = await this.scripts.run<number>('project_swipe', [keys.swipes(pool, fromId), keys.feed(pool, fromId)], [toId, kind]);
    // The floor is a hint for spreading that the next ranking of the feed rewrites: a full Redis refusing it
    // must not keep the swipe's record pending.
    if (removed === 1) await this.redis.zadd(keys.feedFloors(pool, indexPartition(fromId)), 'XX', 0, fromId).catch(() => undefined);
  }

  async list(pool: Pool, matchId: number, users: readonly number[], change: Exclude<ListChange, 'remove'>, at: number): Promise<void> {
    const partition = matchPartition(matchId);
    await Promise.all([
      ...users.map((user) => this.scripts.run('list_match', [keys.userMatches(pool, user), keys.endedMatches(pool, user)], [matchId, change, at])),
      this.scripts.run('list_match', [keys.poolMatches(pool, partition), keys.poolEndedMatches(pool, partition)], [matchId, change, at]),
    ]);
  }

  /** Takes an ended match out of every list and closes its thread in every stream it was told to. */
  async close(pool: Pool, matchId: number, users: readonly number[]): Promise<void> {
    const partition = matchPartition(matchId);
    const closeFor = (keysOf: ReturnType<typeof spectatorStreamKeys>, list?: string) =>
      this.scripts.run('close_thread', [keysOf.endedMatches, keysOf.thread(matchId), keysOf.stream, ...(list ? [list] : [])], [matchId]);
    await Promise.all([
      ...users.map((user) => closeFor(userStreamKeys(pool, user), keys.userMatches(pool, user))),
      ...(pool === 'agent' ? [closeFor(spectatorStreamKeys())] : []),
      this.scripts.run('list_match', [keys.poolMatches(pool, partition), keys.poolEndedMatches(pool, partition)], [matchId, 'remove', 0]),
    ]);
  }
}
