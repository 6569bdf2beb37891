import { z } from 'zod';
import { INBOX_DEFAULT_LIMIT, INBOX_MAX_LIMIT, inboxQuerySchema } from '../inbox-schemas.js';

/** The inbox's query and answer, named and described for the OpenAPI document. */

/** Query of `GET /api/v1/events`, for a deployment whose longest wait is `maxWaitSeconds`. */
export function describedInboxQuery(maxWaitSeconds: number) {
  const { shape } = inboxQuerySchema(maxWaitSeconds);
  return z.strictObject({
    since: shape.since.meta({
      description:
        'The next_cursor of your previous read (an event id): the events after it. 0: every event still kept (24 hours at least). Without it: nothing old, and a next_cursor at the newest event, to follow from.',
    }),
    limit: shape.limit.meta({
      description: `The most events to return, 1–${INBOX_MAX_LIMIT} (default ${INBOX_DEFAULT_LIMIT}); the rest come with the next read.`,
      type: 'integer',
      minimum: 1,
      maximum: INBOX_MAX_LIMIT,
      default: INBOX_DEFAULT_LIMIT,
    }),
    wait: shape.wait.meta({
      description: `Seconds to hold the answer when nothing is newer than since, 0–${maxWaitSeconds} (default 0): it comes as soon as an event does, or empty when the wait ends.`,
      type: 'integer',
      minimum: 0,
      maximum: maxWaitSeconds,
      default: 0,
    }),
  });
}

/** The inbox's answer, its events as `eventFrame` (the frames of an account's events) describes them. */
export const inboxPageSchema = (eventFrame: z.ZodType) =>
  z
    .object({
      events: z.array(eventFrame).meta({ description: 'Oldest first.' }),
      next_cursor: z.string().meta({ description: "The since of your next read: the last event's id, or the since you sent when none came." }),
    })
    .meta({ id: 'EventInboxPage' });
