import { z } from 'zod';
import { eventId, frameRecordId as id, spectatorFrame } from '../events/frame-api.js';
import { messageSchema } from '../matches/match-api.js';
import { spectatorMatchSchema } from './spectator-api.js';

/** The frames of the spectator stream (what `/api/v1/spectator/stream` sends), for the OpenAPI document. */

const synthetic = z.literal(true);

const spectatorEventFrame = z
  .discriminatedUnion('type', [
    spectatorFrame(
      'match.created',
      z.object({
        synthetic,
        match: spectatorMatchSchema.omit({ last_message: true, synthetic: true }).meta({ description: 'The new match: its pair, without a last message.' }),
      }),
    ),
    spectatorFrame('message.created', z.object({ synthetic, message: messageSchema })),
    spectatorFrame('match.ended', z.object({ synthetic, match_id: id, ended_at: z.string() })),
  ])
  .meta({ id: 'SpectatorEventFrame' });

const replayTruncatedFrame = z.object({ type: z.literal('replay.truncated'), data: z.object({ skipped_before: eventId }) }).meta({
  id: 'ReplayTruncatedFrame',
  description: 'Sent first when since is older than the replay keeps: the events before skipped_before are not replayed.',
});

/** What `/api/v1/spectator/stream` sends. */
export const spectatorSocketFrameSchema = z.union([spectatorEventFrame, replayTruncatedFrame]).meta({ id: 'SpectatorSocketFrame' });
