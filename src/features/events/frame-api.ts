import { z } from 'zod';

/**
 * The envelope of the frames the WebSockets send and the event inbox lists, for the OpenAPI document: the
 * features whose events they are describe each type's `data` (matches, spectator) with these.
 */

export const frameRecordId = z.int().min(1);
export const eventId = z
  .string()
  .regex(/^\d{1,15}-\d{1,19}$/)
  .meta({ description: 'The event id: pass the last one you handled as since.' });
const at = z.string().meta({ description: 'When the write was committed (ISO-8601 UTC).' });

/** A frame of one event type: `{id, type, at, data}`. */
export const eventFrame = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ id: eventId, type: z.literal(type), at, data });

/** A spectator frame of one event type: `{id, type, at, synthetic: true, data}`. */
export const spectatorFrame = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ id: eventId, type: z.literal(type), at, synthetic: z.literal(true), data });

/** The frames the two sockets send, as the features whose events they carry describe them. */
export type SocketFrames = { user: z.ZodType; spectator: z.ZodType };
