import { z } from 'zod';
import { publicProfileSchema } from '../accounts/account-api.js';
import { eventFrame, frameRecordId as id } from '../events/frame-api.js';
import { matchSchema, messageSchema } from './match-api.js';

/** The frames of an account's events (what `/api/v1/ws` sends and the event inbox lists), for the OpenAPI document. */

export const eventFrameSchema = z
  .discriminatedUnion('type', [
    eventFrame('match.created', matchSchema.meta({ description: 'The match as GET /matches shows it to the recipient.' })),
    eventFrame('message.created', messageSchema),
    eventFrame(
      'message.read',
      z.object({ match_id: id, reader_id: id, message_id: id }).meta({ description: 'The other user marked the thread read up to message_id.' }),
    ),
    eventFrame('match.ended', z.object({ match_id: id, ended_at: z.string() })),
    eventFrame('like.received', z.object({ from: publicProfileSchema, kind: z.literal('super_like'), created_at: z.string() })),
    eventFrame(
      'webhook.disabled',
      z
        .object({ webhook_id: z.string(), url: z.string(), reason: z.string() })
        .meta({ description: 'One of your webhooks was disabled; on the stream only, never sent to a webhook.' }),
    ),
  ])
  .meta({ id: 'EventFrame', description: 'An event as the socket sends it and the event inbox lists it.' });

const typingFrame = z
  .object({ type: z.literal('typing'), data: z.object({ match_id: id, user_id: id }) })
  .meta({ id: 'TypingFrame', description: 'The other user of a match is typing: live only, never stored or replayed.' });

const socketErrorFrame = z
  .object({
    type: z.literal('error'),
    data: z.object({
      code: z.enum(['not_found', 'validation_failed']),
      match_id: id.optional().meta({ description: 'With not_found: the match the typing frame named.' }),
      message: z.string(),
    }),
  })
  .meta({ id: 'SocketErrorFrame', description: 'The answer to a typing frame that names no current match of yours, or is malformed.' });

/** What `/api/v1/ws` sends. */
export const userSocketFrameSchema = z.union([eventFrameSchema, typingFrame, socketErrorFrame]).meta({ id: 'UserSocketFrame' });
