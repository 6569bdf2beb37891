import type { RedisClient } from '../../platform/redis/redis.js';
import type { Match, MatchHead } from './match.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import type { ActivityCursor } from '../../platform/core/page-positions.js';
import { activityPage, activityPageAcross } from '../../platform/redis/activity-pages.js';
import { ALL_PARTITIONS, matchShard } from '../../platform/redis/key-space.js';
import type { PendingRef } from '../../platform/outbox/outbox-repository.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import { newestMessages } from './message-repository.js';
import { newestFromEntries } from './thread-entries.js';
import { replyList } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';

/** lua/end_match-7.lua: the unmatch's pending record, or undefined when the match was not the caller's to end. */
const endMatch = script('end_match', (raw) => {
  const [ended, record] = replyList(raw);
  return ended === 1 && typeof record === 'string' ? record : undefined;
});

/**
 * How long an ended match's hash is kept (its users, creation and `ended_at`; its thread is closed at once):
 * for that long its users are told it ended (410 `match_ended`) rather than that it is unknown (404).
 */
export const ENDED_MATCH_KEPT_SECONDS = 30 * 24 * 60 * 60;

/** Matches, one hash each under their pool, listed per user and per pool by last activity. */
export class MatchRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    /** How long an ended match's thread stays readable to reports (keys.endedThread); 0: deleted at the end. */
    private readonly threadKeptSeconds = 0,
  ) {}

  /**
   * The current match `id` of `pool` with its newest message; undefined when unknown there or ended (unless
   * `includeEnded`). Two reads on the hot connection, sent together (a liked match is shown with it).
   */
  async find(pool: Pool, id: number, { includeEnded = false } = {}): Promise<Match | undefined> {
    const [hash, newest] = await Promise.all([this.scripts.hgetallHot(keys.match(pool, id)), this.scripts.newestEntriesHot(keys.thread(pool, id), 1)]);
    const head = headFromHash(hash);
    return head && (includeEnded || !head.endedAt) ? { ...head, lastMessage: newestFromEntries(id, newest) } : undefined;
  }

  /** As `find`, without reading the thread: for the checks before a write or a page of messages. */
  async findHead(pool: Pool, id: number, { includeEnded = false } = {}): Promise<MatchHead | undefined> {
    const head = headFromHash(await this.redis.hgetall(keys.match(pool, id)));
    return head && (includeEnded || !head.endedAt) ? head : undefined;
  }

  /** The two users of each of `ids` (matches current or ended and kept), by match id; one HMGET per match, sent together. */
  async usersOf(pool: Pool, ids: readonly number[]): Promise<Map<number, [number, number]>> {
    const found = await Promise.all(ids.map((id) => this.redis.hmget(keys.match(pool, id), 'user_a', 'user_b')));
    const out = new Map<number, [number, number]>();
    ids.forEach((id, i) => {
      const [a, b] = found[i]!;
      if (a && b) out.set(id, [Number(a), Number(b)]);
    });
    return out;
  }

  /** Current matches by id, in order; ended or unknown ones are left out. One round trip. */
  async findMany(pool: Pool, ids: readonly number[]): Promise<Match[]> {
    if (ids.length === 0) return [];
    const [hashes, lasts] = await Promise.all([Promise.all(ids.map((id) => this.redis.hgetall(keys.match(pool, id)))), newestMessages(this.redis, pool, ids)]);
    return hashes.flatMap((hash, i) => {
      const head = headFromHash(hash);
      return head && !head.endedAt ? [{ ...head, lastMessage: lasts[i] ?? null }] : [];
    });
  }

  /** A user's current matches, latest activity first. */
  listForUser(pool: Pool, userId: number, page: PageRequest<ActivityCursor>): Promise<Page<Match, ActivityCursor>> {
    return this.list(pool, keys.userMatches(pool, userId), page);
  }

  /** Every current match of the pool, latest activity first, gathered from the pool's partitions. */
  async listPool(pool: Pool, page: PageRequest<ActivityCursor>): Promise<Page<Match, ActivityCursor>> {
    const { items, next } = await activityPageAcross(
      this.redis,
      ALL_PARTITIONS.map((partition) => keys.poolMatches(pool, partition)),
      page,
    );
    return { items: await this.findMany(pool, items), next };
  }

  /**
   * Ends a current match on behalf of one of its users; its pending outbox record (the match out of the
   * lists, its thread's events out of the streams, `match.ended`), or undefined when it is not (or no
   * longer) theirs to end. Its thread is kept for reports for a while, unless `eraseThread` (an account leaving).
   */
  async end(pool: Pool, match: MatchHead, byUserId: number, endedAt: Date, { eraseThread = false } = {}): Promise<Required<PendingRef> | undefined> {
    const [a, b] = match.userIds;
    const shard = matchShard(match.id);
    const record = await this.scripts.runAcknowledged(
      endMatch,
      [
        keys.match(pool, match.id),
        keys.pair(pool, a, b),
        keys.thread(pool, match.id),
        keys.shardOutbox(pool, shard),
        keys.shardOutboxDue(pool, shard),
        keys.readState(pool, match.id),
        keys.endedThread(pool, match.id),
      ],
      [byUserId, endedAt.toISOString(), match.id, endedAt.getTime(), ENDED_MATCH_KEPT_SECONDS, eraseThread ? 0 : this.threadKeptSeconds],
    );
    return record ? { shard, id: `e${match.id}`, record } : undefined;
  }

  private async list(pool: Pool, key: string, page: PageRequest<ActivityCursor>): Promise<Page<Match, ActivityCursor>> {
    const { items, next } = await activityPage(this.redis, key, page);
    return { items: await this.findMany(pool, items), next };
  }
}

/** A match from its hash (which keeps no message: the last one is its thread's newest). */
function headFromHash(h: Record<string, string>): MatchHead | undefined {
  if (!h.id) return undefined;
  return {
    id: Number(h.id),
    userIds: [Number(h.user_a), Number(h.user_b)],
    createdAt: h.created_at ?? '',
    sharedInterests: h.shared_interests ? (JSON.parse(h.shared_interests) as string[]) : [],
    endedAt: h.ended_at ?? null,
  };
}
