import { z } from 'zod';

export const SWIPE_KINDS = ['like', 'pass', 'super_like'] as const;
export type SwipeKind = (typeof SWIPE_KINDS)[number];

/** A swipe's kind, as a client names it. */
export const swipeKindSchema = z.enum(SWIPE_KINDS, { error: `must be one of ${SWIPE_KINDS.join(', ')}` });

/** The query of `POST /likes/{user_id}`. */
export const swipeQuerySchema = z.strictObject({ kind: swipeKindSchema });

/**
 * What a swipe did, so that `matched: false` is never ambiguous:
 * - recorded: the swipe is stored and there is no match (yet: a like waits for a like back);
 * - matched: this like completed the pair and created the match;
 * - already_matched: the pair was matched before; that match is returned unchanged;
 * - match_kept: a pass on someone you are matched with; the pass is stored, the match stays;
 * - pair_ended: a like on a pair that was unmatched; stored, but the pair never matches again.
 */
export const SWIPE_OUTCOMES = ['recorded', 'matched', 'already_matched', 'match_kept', 'pair_ended'] as const;
