import { z } from 'zod';
import { publicProfileSchema } from '../accounts/account-api.js';
import { MESSAGE_MAX, newMessageSchema, readMarkSchema } from './message-schemas.js';

/** The match and message routes' bodies, named and described for the OpenAPI document. */
/** Body of `POST /matches/{id}/messages`. */
export const describedNewMessage = z
  .strictObject({
    body: newMessageSchema.shape.body.meta({
      description: `1–${MESSAGE_MAX} characters after trimming, under the text policy (line breaks kept; bidirectional controls, zero-width, control and format characters, stacked combining marks and blank text refused).`,
    }),
  })
  .meta({ id: 'NewMessage' });

export const messageSchema = z
  .object({
    id: z.number().int(),
    match_id: z.number().int(),
    sender_id: z.number().int(),
    body: z.string(),
    created_at: z.string(),
    shared_interests_mentioned: z
      .array(z.string())
      .meta({ description: 'The pair\'s shared interests this message mentions, by their canonical names, in any of their forms ("hike" mentions "hiking").' }),
  })
  .meta({ id: 'Message' });

export const matchSchema = z
  .object({
    id: z.number().int(),
    user: publicProfileSchema.meta({ description: 'The other user of the match.' }),
    created_at: z.string(),
    shared_interests: z.array(z.string()).meta({ description: 'The interests both profiles held when the match was made, by canonical name.' }),
    last_message: messageSchema.nullable(),
    unread_count: z
      .number()
      .int()
      .meta({ description: 'Messages from the other user newer than what you marked read (POST /matches/{id}/read) and still in the thread.' }),
    read_up_to: z.number().int().nullable().meta({ description: 'The id of the newest message you marked read; null before your first mark.' }),
  })
  .meta({ id: 'Match' });

/** Body of `POST /matches/{id}/read`. */
export const describedReadMark = z
  .strictObject({
    message_id: readMarkSchema.shape.message_id.meta({ description: 'The id of the newest message of this match you have read (yours or theirs).' }),
  })
  .meta({ id: 'ReadMark' });

export const readStateSchema = z
  .object({
    match_id: z.number().int(),
    read_up_to: z.number().int().meta({ description: 'The id of the newest message you have marked read (never goes back).' }),
    unread_count: z.number().int().meta({ description: 'Messages from the other user after read_up_to.' }),
  })
  .meta({ id: 'ReadState' });
