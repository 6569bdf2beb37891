import type { RedisClient } from './redis.js';
import type { Match, Message } from '../domain/match.js';
import type { Page, PageRequest } from '../domain/page.js';
import type { ActivityCursor } from '../domain/page-positions.js';
import { activityPage, activityPageAcross } from './activity-page.js';
import { ALL_PARTITIONS, matchShard } from './key-space.js';
import type { PendingRef } from './outbox-records.js';
import type { Pool } from '../domain/pool.js';
import { keys } from './keys.js';
import { newestMessages } from './message-repository.js';
import type { Scripts } from './scripts.js';

/** Matches, one hash each under their pool, listed per user and per pool by last activity. */
export class MatchRepository {
  constructor(private readonly redis: RedisClient, private readonly scripts: Scripts) {}

  /** The current match `id` of `pool`; undefined when unknown there or ended (unless `includeEnded`). */
  async find(pool: Pool, id: number, { includeEnded = false } = {}): Promise<Match | undefined> {
    const [hash, [last]] = await Promise.all([this.redis.hgetall(keys.match(pool, id)), newestMessages(this.redis, pool, [id])]);
    const match = fromHash(hash, last ?? null);
    return match && (includeEnded || !match.endedAt) ? match : undefined;
  }

  /** Current matches by id, in order; ended or unknown ones are left out. One round trip. */
  async findMany(pool: Pool, ids: readonly number[]): Promise<Match[]> {
    if (ids.length === 0) return [];
    const [hashes, lasts] = await Promise.all([Promise.all(ids.map((id) => this.redis.hgetall(keys.match(pool, id)))), newestMessages(this.redis, pool, ids)]);
    return hashes.map((hash, i) => fromHash(hash, lasts[i] ?? null)).filter((m): m is Match => m !== undefined && !m.endedAt);
  }

  /** A user's current matches, latest activity first. */
  listForUser(pool: Pool, userId: number, page: PageRequest<ActivityCursor>): Promise<Page<Match, ActivityCursor>> {
    return this.list(pool, keys.userMatches(pool, userId), page);
  }

  /** Every current match of the pool, latest activity first, gathered from the pool's partitions. */
  async listPool(pool: Pool, page: PageRequest<ActivityCursor>): Promise<Page<Match, ActivityCursor>> {
    const { items, next } = await activityPageAcross(this.redis, ALL_PARTITIONS.map((partition) => keys.poolMatches(pool, partition)), page);
    return { items: await this.findMany(pool, items), next };
  }

  /**
   * Ends a current match on behalf of one of its users; its pending outbox record (the match out of the
   * lists, its thread's events out of the streams, `match.ended`), or undefined when it is not (or no
   * longer) theirs to end.
   */
  async end(pool: Pool, match: Match, byUserId: number, endedAt: Date): Promise<Required<PendingRef> | undefined> {
    const [a, b] = match.userIds;
    const shard = matchShard(match.id);
    const record = await this.scripts.run(
      'end_match',
      [keys.match(pool, match.id), keys.pair(pool, a, b), keys.messages(pool, match.id), keys.shardOutbox(pool, shard), keys.shardOutboxDue(pool, shard)],
      [byUserId, endedAt.toISOString(), match.id, endedAt.getTime()],
    );
    return record ? { shard, id: `e${match.id}`, record } : undefined;
  }

  private async list(pool: Pool, key: string, page: PageRequest<ActivityCursor>): Promise<Page<Match, ActivityCursor>> {
    const { items, next } = await activityPage(this.redis, key, page);
    return { items: await this.findMany(pool, items), next };
  }
}

/** A match from its hash; its last message is its thread's newest (the hash keeps none). */
function fromHash(h: Record<string, string>, lastMessage: Message | null): Match | undefined {
  if (!h.id) return undefined;
  return {
    id: Number(h.id),
    userIds: [Number(h.user_a), Number(h.user_b)],
    createdAt: h.created_at ?? '',
    sharedInterests: h.shared_interests ? (JSON.parse(h.shared_interests) as string[]) : [],
    lastMessage,
    endedAt: h.ended_at ?? null,
  };
}
