import { z } from 'zod';
import { matchSchema } from '../matches/match-api.js';
import { SWIPE_KINDS, SWIPE_OUTCOMES, swipeQuerySchema } from './swipe-schemas.js';

/** The swipe route's query and answer, named and described for the OpenAPI document. */
/** Query of `POST /likes/{user_id}`. */
export const describedSwipeQuery = z.strictObject({
  kind: swipeQuerySchema.shape.kind.meta({
    description: 'like or super_like (both count towards a match; super_like also notifies the target at once, only the first time), or pass.',
  }),
});

export const likeResultSchema = z
  .object({
    like: z.object({
      from_user_id: z.number().int(),
      to_user_id: z.number().int(),
      kind: z.enum(SWIPE_KINDS),
      created_at: z.string(),
    }),
    matched: z.boolean().meta({ description: 'True when you and this user are matched now (a new or an existing match, in `match`).' }),
    match: matchSchema.nullable(),
    outcome: z.enum(SWIPE_OUTCOMES).meta({
      description:
        'What the swipe did. recorded: stored, no match (a like waits for a like back). matched: this like created the match. already_matched: you were matched before, nothing changed. match_kept: a pass on someone you are matched with; stored, the match stays (unmatch with DELETE /api/v1/matches/{id}). pair_ended: a like on a pair that was unmatched; stored, the pair never matches again.',
    }),
    note: z.string().meta({ description: 'The outcome as a sentence, with what to do next.' }),
  })
  .meta({ id: 'LikeResult' });

export const undoResultSchema = z
  .object({
    user_id: z.number().int().meta({ description: 'The user the pass was on: back in your feed now.' }),
    undone: z.literal('pass'),
    passed_at: z.string().meta({ description: 'When the pass was made.' }),
    note: z.string().meta({ description: 'What the undo did, as a sentence.' }),
  })
  .meta({ id: 'UndoResult' });
