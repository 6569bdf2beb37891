import type { Logger } from '../../platform/logger.js';
import { POOLS, type Pool } from '../../platform/core/pool.js';
import { INDEX_PARTITIONS, indexPartition } from '../../platform/redis/key-space.js';
import { storedGenderAndBirth } from '../accounts/index.js';
import type { SwipeSignal } from '../swipes/index.js';
import type { FeedRepository } from './feed-repository.js';
import { LIKED_YOU_BONUS, RANKED_FEED_SIZE, SCORE_SCALE } from './discovery-scoring.js';
import { ageOfBirth, TASTE_GENDERS } from './swipe-taste.js';

/**
 * How long the swipes' notes gather before they are sent: an account swiping on is noted once for all its
 * swipes of that time. Any read of the traits in this process sends what is gathered first.
 */
export const NOTE_WINDOW_MS = 50;
/** The most swipers one call of lua/note_swipe-3.lua notes (four words each). */
const SWIPERS_PER_CALL = 128;
/** A taste's numbers: seen and liked per gender, then the liked ages' count, sum and sum of squares. */
const TASTE_NUMBERS = TASTE_GENDERS * 2 + 3;

/** What one swiper's swipes of a window add to its traits. */
type Note = {
  /** The latest learning swipe's time (ms); 0 when every swipe was a replay. */
  activeMs: number;
  /** What the swipes add to the swiper's taste (lua/note_swipe-3.lua adds it to the stored one). */
  taste: number[];
  /** A swipe took its target out of the swiper's feed: the feed has room. */
  leftFeed: boolean;
};

/**
 * What discovery learns from a swipe (the swipes feature tells it, wired by the composition): the
 * swiper's taste grows by the target's gender and age (as the swipe read the target), the swiper counts
 * as active, a swipe that took its target out of the swiper's feed gives the feed room (its floor drops),
 * and a like or super like that made no match lifts the swiper in the target's feed
 * (lua/lift_liker-3.lua). A replayed swipe (an Idempotency-Key seen before) teaches nothing again and
 * only gives the feed its room.
 *
 * All of it is done after the answers. A lift is sent in the next check phase of the event loop, once the
 * answers of that turn are written, in a call of its own (its keys lie in the target's shard). The rest is
 * gathered per swiper for NOTE_WINDOW_MS and sent in one call of lua/note_swipe-3.lua per index partition
 * of the swipers, over the hot connection; a read of the traits in this process (a ranking, a feed page)
 * sends it first, on the same connection, so that it reads every swipe answered before.
 */
export class SwipeSignals {
  /** The notes gathered per pool (by POOLS index), by swiper. */
  private readonly notes: Array<Map<number, Note>> = POOLS.map(() => new Map<number, Note>());
  private gathered = 0;
  private timer?: NodeJS.Timeout;
  private lifts: SwipeSignal[] = [];
  private readonly sendNotes = () => this.flush();
  private readonly sendLifts = () => this.lift();

  constructor(
    private readonly feeds: FeedRepository,
    private readonly logger: Logger,
  ) {
    feeds.traits.beforeRead(this.sendNotes);
  }

  /** Takes in a swipe about to be answered; what it teaches is sent after the answer. */
  swiped(signal: SwipeSignal): void {
    const { pool, swiperId, kind, replay, leftFeed } = signal;
    if (replay && !leftFeed) return;
    const notes = this.notes[POOLS.indexOf(pool)]!;
    let note = notes.get(swiperId);
    if (!note) {
      note = { activeMs: 0, taste: new Array<number>(TASTE_NUMBERS).fill(0), leftFeed: false };
      notes.set(swiperId, note);
    }
    if (leftFeed) note.leftFeed = true;
    if (!replay) {
      const now = new Date();
      note.activeMs = now.getTime();
      const liked = kind !== 'pass';
      const target = storedGenderAndBirth(signal.target);
      const gender = target.gender;
      if (Number.isInteger(gender) && gender >= 0 && gender < TASTE_GENDERS) {
        const age = ageOfBirth(target.birth, now);
        note.taste[gender]! += 1;
        if (liked) {
          note.taste[TASTE_GENDERS + gender]! += 1;
          note.taste[TASTE_GENDERS * 2]! += 1;
          if (Number.isFinite(age)) {
            note.taste[TASTE_GENDERS * 2 + 1]! += age;
            note.taste[TASTE_GENDERS * 2 + 2]! += age * age;
          }
        }
      }
      if (liked && signal.outcome === 'recorded' && this.lifts.push(signal) === 1) setImmediate(this.sendLifts);
    }
    if (++this.gathered === 1) {
      this.timer = setTimeout(this.sendNotes, NOTE_WINDOW_MS);
      this.timer.unref();
    }
  }

  /** Sends every note gathered (called when the window ends, before a read of the traits, and at a stop). */
  flush(): void {
    if (this.gathered === 0) return;
    this.gathered = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.notes.forEach((notes, poolIndex) => {
      if (notes.size === 0) return;
      const pool = POOLS[poolIndex]!;
      // Per partition of the swipers: the words of lua/note_swipe-3.lua, four a swiper.
      const byPartition = new Array<Array<string | number> | undefined>(INDEX_PARTITIONS);
      for (const [swiperId, note] of notes) {
        (byPartition[indexPartition(swiperId)] ??= []).push(swiperId, note.activeMs || '', note.activeMs ? note.taste.join(',') : '', note.leftFeed ? 1 : 0);
      }
      notes.clear();
      byPartition.forEach((words, part) => {
        if (!words) return;
        for (let from = 0; from < words.length; from += SWIPERS_PER_CALL * 4)
          this.note(pool, part, words.length <= SWIPERS_PER_CALL * 4 ? words : words.slice(from, from + SWIPERS_PER_CALL * 4));
      });
    });
  }

  private note(pool: Pool, part: number, words: ReadonlyArray<string | number>) {
    this.feeds.traits.noteSwipes(pool, part, words).catch((error: unknown) => {
      // The swipes stand; the ranking only misses these signals until the accounts' next swipes and rankings.
      this.logger.warn({ err: (error as Error).message, pool, partition: part, swipers: words.length / 4 }, 'could not record swipes for ranking');
    });
  }

  private lift() {
    const lifts = this.lifts;
    this.lifts = [];
    const nowMs = Date.now();
    for (const { pool, targetId, swiperId } of lifts) {
      this.feeds.traits.liftLiker(pool, targetId, swiperId, LIKED_YOU_BONUS * SCORE_SCALE, RANKED_FEED_SIZE, nowMs).catch((error: unknown) => {
        this.logger.warn({ err: (error as Error).message, swiperId, targetId }, "could not lift a like in its target's feed");
      });
    }
  }
}
