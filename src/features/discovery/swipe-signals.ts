import type { Logger } from '../../platform/logger.js';
import type { Pool } from '../../platform/core/pool.js';
import { GENDERS, type Gender } from '../accounts/index.js';
import type { DiscoveryIndex } from './discovery-index-repository.js';
import type { FeedStore } from './feed-repository.js';
import { LIKED_YOU_BONUS, RANKED_FEED_SIZE, SCORE_SCALE } from './discovery-scoring.js';
import { ageOfBirth } from './swipe-taste.js';

/**
 * What discovery learns from a swipe (the swipes feature tells it, wired by the composition): the
 * swiper's taste grows by the target's gender and age, the swiper counts as active, and a like or super
 * like that made no match lifts the swiper in the target's feed right after the swipe's answer (lua/lift_liker-3.lua).
 */
export class SwipeSignals {
  constructor(
    private readonly index: DiscoveryIndex,
    private readonly feeds: FeedStore,
    private readonly logger: Logger,
  ) {}

  async swiped(pool: Pool, swiperId: number, targetId: number, kind: string, outcome: string): Promise<void> {
    const liked = kind === 'like' || kind === 'super_like';
    const now = new Date();
    try {
      await Promise.all([
        this.index.indexed(pool, targetId).then((target) =>
          target ? this.feeds.traits.noteSwipe(pool, swiperId, GENDERS.indexOf(target.gender as Gender), ageOfBirth(target.birth, now), liked, now.getTime()) : undefined,
        ),
        liked && outcome === 'recorded' ? this.feeds.traits.liftLiker(pool, targetId, swiperId, LIKED_YOU_BONUS * SCORE_SCALE, RANKED_FEED_SIZE, now.getTime()) : undefined,
      ]);
    } catch (error) {
      // The swipe stands; the ranking only misses this signal until the accounts' next swipes and rankings.
      this.logger.warn({ err: (error as Error).message, swiperId, targetId }, 'could not record the swipe for ranking');
    }
  }
}
