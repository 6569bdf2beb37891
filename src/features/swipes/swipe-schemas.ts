import { z } from 'zod';

export const SWIPE_KINDS = ['like', 'pass', 'super_like'] as const;
export type SwipeKind = (typeof SWIPE_KINDS)[number];

/** A swipe's kind, as a client names it. */
export const swipeKindSchema = z.enum(SWIPE_KINDS, { error: `must be one of ${SWIPE_KINDS.join(', ')}` });

/** The query of `POST /likes/{user_id}`. */
export const swipeQuerySchema = z.strictObject({ kind: swipeKindSchema });
