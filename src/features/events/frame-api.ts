import { z } from 'zod';
import { publicProfileSchema } from '../accounts/index.js';
import { matchSchema, messageSchema } from '../matches/index.js';
import { spectatorMatchSchema } from '../spectator/index.js';

/**
 * The frames the WebSockets send, each type with its own `data`, for the OpenAPI document: a socket's
 * operation names them in `x-frames`, and the event inbox's answer holds the same event frames.
 */

const id = z.int().min(1);
const eventId = z
  .string()
  .regex(/^\d{1,15}-\d{1,19}$/)
  .meta({ description: 'The event id: pass the last one you handled as since.' });
const at = z.string().meta({ description: 'When the write was committed (ISO-8601 UTC).' });

const eventFrame = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ id: eventId, type: z.literal(type), at, data });

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
      z.object({ webhook_id: z.string(), url: z.string(), reason: z.string() }).meta({ description: 'One of your webhooks was disabled; on the stream only, never sent to a webhook.' }),
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

const synthetic = z.literal(true);
const spectatorFrame = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ id: eventId, type: z.literal(type), at, synthetic, data });

const spectatorEventFrame = z
  .discriminatedUnion('type', [
    spectatorFrame(
      'match.created',
      z.object({ synthetic, match: spectatorMatchSchema.omit({ last_message: true, synthetic: true }).meta({ description: 'The new match: its pair, without a last message.' }) }),
    ),
    spectatorFrame('message.created', z.object({ synthetic, message: messageSchema })),
    spectatorFrame('match.ended', z.object({ synthetic, match_id: id, ended_at: z.string() })),
  ])
  .meta({ id: 'SpectatorEventFrame' });

const replayTruncatedFrame = z
  .object({ type: z.literal('replay.truncated'), data: z.object({ skipped_before: eventId }) })
  .meta({ id: 'ReplayTruncatedFrame', description: 'Sent first when since is older than the replay keeps: the events before skipped_before are not replayed.' });

/** What `/api/v1/spectator/stream` sends. */
export const spectatorSocketFrameSchema = z.union([spectatorEventFrame, replayTruncatedFrame]).meta({ id: 'SpectatorSocketFrame' });
