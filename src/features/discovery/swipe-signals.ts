import type { Logger } from '../../platform/logger.js';
import { POOLS, type Pool } from '../../platform/core/pool.js';
import { INDEX_PARTITIONS, indexPartition } from '../../platform/redis/key-space.js';
import { storedGenderAndBirth } from '../accounts/index.js';
import type { SwipeSignal } from '../swipes/index.js';
import type { FeedStore } from './feed-repository.js';
import { LIKED_YOU_BONUS, RANKED_FEED_SIZE, SCORE_SCALE } from './discovery-scoring.js';
import { ageOfBirth } from './swipe-taste.js';

/** The most swipes one call of lua/note_swipe-3.lua notes (six words each). */
const SWIPES_PER_CALL = 128;

/**
 * What discovery learns from a swipe (the swipes feature tells it, wired by the composition): the
 * swiper's taste grows by the target's gender and age (as the swipe read the target), the swiper counts
 * as active, a swipe that took its target out of the swiper's feed gives the feed room (its floor drops),
 * and a like or super like that made no match lifts the swiper in the target's feed
 * (lua/lift_liker-3.lua). A replayed swipe (an Idempotency-Key seen before) teaches nothing again and
 * only gives the feed its room.
 *
 * All of it is done after the answers: the swipes told during one turn of the event loop are noted in
 * the next check phase, once their answers are written, in one call of lua/note_swipe-3.lua per index
 * partition of their swipers, over the lean connection, and each lift in a call of its own (its keys lie
 * in the target's shard).
 */
export class SwipeSignals {
  /** The swipes told since the last flush; a flush is scheduled while it is not empty. */
  private pending: SwipeSignal[] = [];
  private readonly flushNow = () => this.flush();

  constructor(
    private readonly feeds: FeedStore,
    private readonly logger: Logger,
  ) {}

  /** Takes in a swipe about to be answered; what it teaches is sent after the answer. */
  swiped(signal: SwipeSignal): void {
    if (this.pending.push(signal) === 1) setImmediate(this.flushNow);
  }

  private flush() {
    const signals = this.pending;
    this.pending = [];
    const now = new Date();
    const nowMs = now.getTime();
    // Per pool and partition of the swipers: the words of lua/note_swipe-3.lua.
    const notes: Array<Array<string | number> | undefined> = [];
    for (const signal of signals) {
      const { pool, swiperId, targetId, kind, replay, leftFeed } = signal;
      const learn = !replay;
      if (!learn && !leftFeed) continue;
      const liked = kind !== 'pass';
      let gender = -1;
      let age = 0;
      if (learn) {
        const target = storedGenderAndBirth(signal.target);
        if (Number.isInteger(target.gender) && target.gender >= 0 && target.gender <= 3) gender = target.gender;
        const years = ageOfBirth(target.birth, now);
        if (Number.isFinite(years)) age = years;
        if (liked && signal.outcome === 'recorded') this.lift(pool, targetId, swiperId, nowMs);
      }
      const at = POOLS.indexOf(pool) * INDEX_PARTITIONS + indexPartition(swiperId);
      (notes[at] ??= []).push(swiperId, learn ? 1 : 0, gender, age, liked ? 1 : 0, leftFeed ? 1 : 0);
    }
    notes.forEach((words, at) => {
      if (!words) return;
      const pool = POOLS[Math.floor(at / INDEX_PARTITIONS)]!;
      const part = at % INDEX_PARTITIONS;
      for (let from = 0; from < words.length; from += SWIPES_PER_CALL * 6) {
        const some = from === 0 && words.length <= SWIPES_PER_CALL * 6 ? words : words.slice(from, from + SWIPES_PER_CALL * 6);
        this.feeds.traits.noteSwipes(pool, part, some, nowMs).catch((error: unknown) => {
          // The swipes stand; the ranking only misses these signals until the accounts' next swipes and rankings.
          this.logger.warn({ err: (error as Error).message, pool, partition: part, swipes: some.length / 6 }, 'could not record swipes for ranking');
        });
      }
    });
  }

  private lift(pool: Pool, targetId: number, likerId: number, nowMs: number) {
    this.feeds.traits.liftLiker(pool, targetId, likerId, LIKED_YOU_BONUS * SCORE_SCALE, RANKED_FEED_SIZE, nowMs).catch((error: unknown) => {
      this.logger.warn({ err: (error as Error).message, swiperId: likerId, targetId }, 'could not lift a like in its target\'s feed');
    });
  }
}
