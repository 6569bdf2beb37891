import { z } from 'zod';

export const SWIPE_KINDS = ['like', 'pass', 'super_like'] as const;
export type SwipeKind = (typeof SWIPE_KINDS)[number];

/** Query of `POST /likes/{user_id}`. */
export const likeQuerySchema = z
  .strictObject({
    kind: z.enum(SWIPE_KINDS, { error: `must be one of ${SWIPE_KINDS.join(', ')}` }).meta({
      description: 'like or super_like (both count towards a match; super_like also notifies the target at once), or pass.',
    }),
  });
