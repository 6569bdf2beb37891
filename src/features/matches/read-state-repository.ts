import type { RedisClient } from '../../platform/redis/redis.js';
import type { Pool } from '../../platform/core/pool.js';
import { matchShard } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import { replyList, replyText } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import type { PendingRef } from '../../platform/outbox/outbox-repository.js';
import { otherParticipant, type MatchHead, type ReadState } from './match.js';

export type MarkReadOutcome =
  { status: 'not_found' } | { status: 'no_message' } | { status: 'moved' | 'unchanged'; read: ReadState; pending?: Required<PendingRef> };

type MarkReadReply =
  { status: 'not_found' } | { status: 'no_message' } | { status: 'moved' | 'unchanged'; readUpTo: number; unreadCount: number; pendingRecord?: string };

/** lua/mark_read-5.lua: {'not_found'}, {'no_message'}, {'unchanged', mark, unread} or {'moved', mark, unread, pending record}. */
function decodeMarkRead(raw: unknown): MarkReadReply {
  const [status, mark, unread, pending] = replyList(raw);
  if (status === 'no_message') return { status: 'no_message' };
  if (status !== 'moved' && status !== 'unchanged') return { status: 'not_found' };
  return { status, readUpTo: Number(mark), unreadCount: Number(unread), ...(pending ? { pendingRecord: replyText(pending) } : {}) };
}

const markRead = script('mark_read', decodeMarkRead);

/**
 * Where each user of a match has read to (lua/includes/read_state.lua): counters kept beside the thread by
 * the scripts that append and trim it, so an unread count costs one HMGET whatever the thread's size.
 */
export class ReadStateRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {}

  /** The viewer's read state of each match, in order (one read each, sent together). */
  async forViewer(pool: Pool, matches: readonly MatchHead[], viewerId: number): Promise<ReadState[]> {
    const raw = await Promise.all(
      matches.map((match) =>
        this.redis.hmget(keys.readState(pool, match.id), `sent:${otherParticipant(match, viewerId)}`, `seen:${viewerId}`, `at:${viewerId}`),
      ),
    );
    return raw.map(([sent, seen, at]) => ({
      unreadCount: Math.max(0, Number(sent ?? 0) - Number(seen ?? 0)),
      readUpTo: at ? Number(at) : null,
    }));
  }

  /** Moves the reader's mark forward to `messageId` (lua/mark_read-5.lua); the pending `message.read` when it moved. */
  async markRead(pool: Pool, matchId: number, readerId: number, messageId: number, now: Date): Promise<MarkReadOutcome> {
    const shard = matchShard(matchId);
    const reply = await this.scripts.run(
      markRead,
      [keys.match(pool, matchId), keys.thread(pool, matchId), keys.readState(pool, matchId), keys.shardOutbox(pool, shard), keys.shardOutboxDue(pool, shard)],
      [readerId, messageId, matchId, now.getTime(), now.toISOString()],
    );
    if (reply.status === 'not_found') return { status: 'not_found' };
    if (reply.status === 'no_message') return { status: 'no_message' };
    const read = { unreadCount: reply.unreadCount, readUpTo: reply.readUpTo };
    const pending = reply.pendingRecord ? { shard, id: `r${matchId}:${readerId}:${messageId}`, record: reply.pendingRecord } : undefined;
    return { status: reply.status, read, ...(pending ? { pending } : {}) };
  }
}
