import type { Page, PageRequest } from '../../platform/core/page.js';
import type { ActivityCursor } from '../../platform/core/page-positions.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { activityPage } from '../../platform/redis/activity-pages.js';
import { replyIsOne, replyList, replyText } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';

/** A block of the caller's: whom, and since when (ms). */
export type StoredBlock = { userId: number; since: number };
export type AddedBlock = { status: 'full' } | { status: 'added' | 'existing'; since: number };

/** lua/add_block-3.lua: 'added' or 'existing' with when the block was made (ms), or 'full' when the account's cap is reached. */
const addBlock = script('add_block', (raw): AddedBlock => {
  const [added, since] = replyList(raw);
  return added === -1 ? { status: 'full' } : { status: added === 1 ? 'added' : 'existing', since: Number(since) };
});
const removeBlock = script('remove_block', replyIsOne);
const markBlockedBy = script('mark_blocked_by', replyIsOne);
/** lua/block_pair-1.lua: the pair's match state: a match id, "ended:<id>", or '' when none. */
const blockPair = script('block_pair', replyText);

/**
 * Blocks, each written in single-slot steps (a Redis Cluster keeps an account's keys and a pair's apart):
 * the blocker's list and hidden mark (lua/add_block-3.lua, remove_block-2.lua), the blocked account's
 * hidden mark (mark_blocked_by-2.lua), the pair's flag (block_pair-1.lua). Each step is idempotent, so a
 * block sent again completes one a crash interrupted.
 */
export class BlockRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly maxPerAccount: number,
  ) {}

  /** The blocker's side: listed (within the cap), hidden from the blocker, out of the blocker's feed. */
  add(pool: Pool, blocker: number, blocked: number, now: Date): Promise<AddedBlock> {
    return this.scripts.runAcknowledged(
      addBlock,
      [keys.blocks(pool, blocker), keys.hidden(pool, blocker), keys.feed(pool, blocker)],
      [blocked, now.getTime(), this.maxPerAccount],
    );
  }

  /** Whether the blocker blocks the account. */
  async has(pool: Pool, blocker: number, blocked: number): Promise<boolean> {
    return (await this.redis.zscore(keys.blocks(pool, blocker), String(blocked))) !== null;
  }

  /** The blocker's side of an unblock; false when there was no such block. */
  remove(pool: Pool, blocker: number, blocked: number): Promise<boolean> {
    return this.scripts.runAcknowledged(removeBlock, [keys.blocks(pool, blocker), keys.hidden(pool, blocker)], [blocked]);
  }

  /** The blocked account's side: the blocker hidden from it (and out of its feed), or no longer. */
  async markBlockedBy(pool: Pool, blocked: number, blocker: number, on: boolean): Promise<void> {
    await this.scripts.runAcknowledged(markBlockedBy, [keys.hidden(pool, blocked), keys.feed(pool, blocked)], [blocker, on ? 1 : 0]);
  }

  /** Sets or clears the blocker's flag on the pair; answers the pair's match state (a match id, "ended:<id>", or ''). */
  flagPair(pool: Pool, blocker: number, blocked: number, on: boolean): Promise<string> {
    return this.scripts.runAcknowledged(blockPair, [keys.pair(pool, blocker, blocked)], [blocker, on ? 1 : 0]);
  }

  /** The blocker's blocks, newest first. */
  async list(pool: Pool, blocker: number, page: PageRequest<ActivityCursor>): Promise<Page<StoredBlock, ActivityCursor>> {
    const { items, next } = await activityPage(this.redis, keys.blocks(pool, blocker), page);
    if (items.length === 0) return { items: [], next };
    const scores = await this.redis.zmscore(keys.blocks(pool, blocker), ...items.map(String));
    // A block removed between the two reads has no score: it is left out.
    const blocks = items.flatMap((userId, i) => (scores[i] == null ? [] : [{ userId, since: Number(scores[i]) }]));
    return { items: blocks, next };
  }
}
