import { validate } from '../../../platform/core/validation.js';
import type { AccountLimits } from '../../../platform/limits/account-limits.js';
import { queryParams } from '../../../platform/http/params.js';
import type { Reply, Route } from '../../../platform/http/types.js';
import { describedInboxQuery, inboxPageSchema } from './inbox-api.js';
import type { EventInbox, InboxPage } from './inbox-service.js';

type Deps = { inbox: EventInbox; limits: AccountLimits; maxWaitSeconds: number; maxWaitingPerAccount: number };

export const INBOX_PATH = '/api/v1/events';

/** The answer's JSON, the frames spliced in as the stream holds them (the same text the socket sends). */
function inboxReply({ events, nextCursor }: InboxPage): Reply {
  const text = `{"events":[${events.map((event) => event.frame).join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}`;
  return { status: 200, text, contentType: 'application/json; charset=utf-8', headers: { 'Cache-Control': 'no-store' } };
}

/** `GET /api/v1/events`: the event inbox, for clients that can hold neither a WebSocket nor a webhook. */
export function inboxRoutes({ inbox, limits, maxWaitSeconds, maxWaitingPerAccount }: Deps): Route[] {
  const query = describedInboxQuery(maxWaitSeconds);
  return [
    {
      method: 'GET',
      path: INBOX_PATH,
      auth: true,
      doc: {
        summary: `Your events after since, oldest first, as the WebSocket /api/v1/ws sends them ({id, type, at, data}), with next_cursor to pass as since next time: for clients that can hold neither a socket nor a webhook. since=0 reads every kept event; no since starts at the newest (no events, a cursor to follow from). wait (seconds, up to ${maxWaitSeconds}) holds the answer until an event comes when none is newer; an empty answer keeps the cursor. At most ${maxWaitingPerAccount} reads with wait per account at once (429 past them, Retry-After).`,
        tags: ['realtime'],
        query,
        response: { status: 200, schema: inboxPageSchema, description: 'The events after since (maybe none) and the cursor to read from next.' },
        errors: [400, 401, 429],
        errorDescriptions: {
          400: '`since`, `limit` or `wait` breaks its rule, or a parameter is unknown or repeated (`validation_failed`).',
          429: `Over the account's event inbox reads per window, or (a read with wait) ${maxWaitingPerAccount} reads with wait already in progress for the account (\`rate_limited\`); see \`Retry-After\`.`,
        },
      },
      handler: async (req) => {
        await limits.take('events', req.auth);
        const { since, limit, wait } = validate(query, queryParams(req.query), 'query');
        return inboxReply(await inbox.read(req.auth, { since, limit, waitSeconds: wait }, req.signal));
      },
    },
  ];
}
