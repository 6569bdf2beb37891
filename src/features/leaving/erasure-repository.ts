import type { RedisClient } from '../../platform/redis/redis.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import { indexPartition } from '../../platform/redis/key-space.js';
import { ACCOUNT_COUNTER_NAMES } from '../../platform/limits/account-limits.js';

/** Entries read per step of a walk (ZSCAN, HSCAN): each step costs Redis a few ms at most. */
const STEP = 200;

/**
 * The Redis side of an account's erasure, in bounded steps, each idempotent: walks of the account's
 * matches and swipes, the pairs it swiped (and the other side's mark of it), its webhooks, and every key
 * of its own (all in its shard's slot).
 */
export class ErasureRepository {
  constructor(private readonly redis: RedisClient) {}

  /** The account's listed matches, a step at a time (ZSCAN: one ended meanwhile leaves the list without stopping the walk). */
  async *matchIds(pool: Pool, id: number): AsyncGenerator<number[]> {
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.zscan(keys.userMatches(pool, id), cursor, 'COUNT', STEP);
      cursor = next;
      const ids = flat.filter((_, i) => i % 2 === 0).map(Number);
      if (ids.length > 0) yield ids;
    } while (cursor !== '0');
  }

  /** The account's matches ended lately (its ended set), a step at a time: their threads kept for reports are the account's too. */
  async *endedMatchIds(pool: Pool, id: number): AsyncGenerator<number[]> {
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.zscan(keys.endedMatches(pool, id), cursor, 'COUNT', STEP);
      cursor = next;
      const ids = flat.filter((_, i) => i % 2 === 0).map(Number);
      if (ids.length > 0) yield ids;
    } while (cursor !== '0');
  }

  /** The threads of ended matches kept for reports (keys.endedThread), unlinked (freed in the background), one command per match. */
  async dropEndedThreads(pool: Pool, matchIds: readonly number[]): Promise<void> {
    await Promise.all(matchIds.map((matchId) => this.redis.unlink(keys.endedThread(pool, matchId))));
  }

  /** Everyone the account swiped, a step at a time (HSCAN of its swipes). */
  swiped(pool: Pool, id: number): AsyncGenerator<number[]> {
    return this.fieldIds(keys.swipes(pool, id));
  }

  /** Everyone a block separates from the account, either way, a step at a time (HSCAN of its hidden accounts). */
  separated(pool: Pool, id: number): AsyncGenerator<number[]> {
    return this.fieldIds(keys.hidden(pool, id));
  }

  private async *fieldIds(key: string): AsyncGenerator<number[]> {
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(key, cursor, 'COUNT', STEP);
      cursor = next;
      const ids = flat.filter((_, i) => i % 2 === 0).map(Number);
      if (ids.length > 0) yield ids;
    } while (cursor !== '0');
  }

  /** For each account a block separates from `id`: their pair's hash (with its block marks) goes, and `id` leaves their blocks and hidden accounts. */
  async dropBlocks(pool: Pool, id: number, others: readonly number[]): Promise<void> {
    await Promise.all(
      others.flatMap((other) => [
        this.redis.del(keys.pair(pool, id, other)),
        this.redis.zrem(keys.blocks(pool, other), String(id)),
        this.redis.hdel(keys.hidden(pool, other), String(id)),
      ]),
    );
  }

  /**
   * For each account `id` swiped: their pair's hash goes, and so do their swipe on `id` (with their pass's
   * time) and `id` in their feed. Their swipe is removed whatever the pair says: a first pass is kept in the
   * swiper's own keys only. One command per key, pipelined (the keys lie in many slots).
   */
  async dropPairs(pool: Pool, id: number, others: readonly number[]): Promise<void> {
    await Promise.all(
      others.flatMap((other) => [
        this.redis.del(keys.pair(pool, id, other)),
        this.redis.zrem(keys.feed(pool, other), String(id)),
        this.redis.zrem(keys.likers(pool, other), String(id)),
        this.redis.hdel(keys.swipes(pool, other), String(id)),
        this.redis.zrem(keys.passes(pool, other), String(id)),
      ]),
    );
  }

  /** What the ranking kept of the account (its traits, taste and last activity), in its index partition. */
  async dropRankTraits(pool: Pool, id: number): Promise<void> {
    await this.redis.hdel(keys.rankTraits(pool, indexPartition(id)), `p:${id}`, `t:${id}`, `a:${id}`);
  }

  /** Every webhook of the account with its delivery log and test ping (a set of at most WEBHOOK_MAX_PER_ACCOUNT). */
  async dropWebhooks(pool: Pool, id: number): Promise<void> {
    const hooks = await this.redis.smembers(keys.webhooks(pool, id));
    const own = hooks.flatMap((hook) => [keys.webhook(pool, id, hook), keys.webhookDeliveries(pool, id, hook), keys.webhookPing(pool, id, hook)]);
    await this.redis.del(keys.webhooks(pool, id), ...own);
  }

  /**
   * Every key of the account's own, all in its shard's slot: swipes, passes, feed, blocks, likers, match lists, event stream,
   * tokens, socket leases and rate-limit counters. Each is a bounded structure, unlinked (freed in the background).
   */
  async dropOwnKeys(pool: Pool, id: number): Promise<void> {
    await this.redis.unlink(
      keys.swipes(pool, id),
      keys.passes(pool, id),
      keys.passesTimed(pool, id),
      keys.feed(pool, id),
      keys.blocks(pool, id),
      keys.hidden(pool, id),
      keys.likers(pool, id),
      keys.userMatches(pool, id),
      keys.endedMatches(pool, id),
      keys.userEvents(pool, id),
      keys.accountTokens(pool, id),
      keys.accountSockets(pool, id),
      keys.webhooks(pool, id),
      ...ACCOUNT_COUNTER_NAMES.map((name) => keys.accountRateLimit(name, pool, id)),
    );
  }
}
