import type { z } from 'zod';
import type { AuthedEndpoint } from '../../../platform/http/types.js';
import { describedInboxQuery, inboxPageSchema } from './inbox-api.js';

export const INBOX_PATH = '/api/v1/events';

/** How long a read may wait, and how many reads with a wait one account may hold at once: the deployment's settings. */
export type InboxLimits = { maxWaitSeconds: number; maxWaitingPerAccount: number };

/** What the inbox lists: the frames of an account's events, as the features whose events they are describe them. */
export type InboxFrames = { eventFrame: z.ZodType };

/** `GET /api/v1/events` as declared for a deployment's limits (inbox-routes.ts gives it its handler). */
export function inboxEndpoint({ maxWaitSeconds, maxWaitingPerAccount, eventFrame }: InboxLimits & InboxFrames) {
  return {
    method: 'GET' as const,
    path: INBOX_PATH,
    auth: true as const,
    doc: {
      summary: `Your events after since, oldest first, as the WebSocket /api/v1/ws sends them ({id, type, at, data}), with next_cursor to pass as since next time: for clients that can hold neither a socket nor a webhook. since=0 reads every kept event; no since starts at the newest (no events, a cursor to follow from). wait (seconds, up to ${maxWaitSeconds}) holds the answer until an event comes when none is newer; an empty answer keeps the cursor. At most ${maxWaitingPerAccount} reads with wait per account at once (429 past them, Retry-After).`,
      tags: ['realtime'],
      query: describedInboxQuery(maxWaitSeconds),
      response: { status: 200, schema: inboxPageSchema(eventFrame), description: 'The events after since (maybe none) and the cursor to read from next.' },
      errors: [400, 401, 429],
      errorDescriptions: {
        400: '`since`, `limit` or `wait` breaks its rule, or a parameter is unknown or repeated (`validation_failed`).',
        429: `Over the account's event inbox reads per window, or (a read with wait) ${maxWaitingPerAccount} reads with wait already in progress for the account (\`rate_limited\`); see \`Retry-After\`.`,
      },
    },
  } satisfies AuthedEndpoint;
}
