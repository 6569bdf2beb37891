import { z } from 'zod';
import * as profile from '../../domain/profile.js';
import { SWIPE_KINDS } from '../../domain/swipe-kinds.js';
import { SWIPE_OUTCOMES } from '../../services/swipe-service.js';

/** Response shapes, for the OpenAPI document. */
export const tokenSchema = z
  .object({ token: z.string(), token_type: z.literal('Bearer'), expires_at: z.string(), user_id: z.number().int() })
  .meta({ id: 'Token' });

export const publicProfileSchema = profile.publicProfileSchema.meta({ id: 'PublicProfile' });

export const ownProfileSchema = profile.ownProfileSchema.meta({ id: 'OwnProfile' });

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      retry_after_seconds: z.number().int().optional(),
    }),
  })
  .meta({ id: 'Error' });

/** The list envelope every paginated endpoint answers with. */
export const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export const messageSchema = z
  .object({
    id: z.number().int(),
    match_id: z.number().int(),
    sender_id: z.number().int(),
    body: z.string(),
    created_at: z.string(),
    shared_interests_mentioned: z.array(z.string()).meta({ description: "The pair's shared interests this message mentions." }),
  })
  .meta({ id: 'Message' });

export const matchSchema = z
  .object({
    id: z.number().int(),
    user: publicProfileSchema.meta({ description: 'The other user of the match.' }),
    created_at: z.string(),
    shared_interests: z.array(z.string()),
    last_message: messageSchema.nullable(),
  })
  .meta({ id: 'Match' });

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
