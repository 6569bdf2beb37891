import { validate } from '../../../platform/core/validation.js';
import type { AccountLimits } from '../../../platform/limits/account-limits.js';
import { queryParams } from '../../../platform/http/params.js';
import type { Reply, Route, AuthedRequest } from '../../../platform/http/types.js';
import { inboxEndpoint, type InboxFrames } from './inbox-endpoints.js';
import type { EventInbox, InboxPage } from './inbox-service.js';

type Deps = { inbox: EventInbox; limits: AccountLimits; maxWaitSeconds: number; maxWaitingPerAccount: number } & InboxFrames;

/** The answer's JSON, the frames spliced in as the stream holds them (the same text the socket sends). */
function inboxReply({ events, nextCursor }: InboxPage): Reply {
  const text = `{"events":[${events.map((event) => event.frame).join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}`;
  return { status: 200, text, contentType: 'application/json; charset=utf-8', headers: { 'Cache-Control': 'no-store' } };
}

/** `GET /api/v1/events`: the event inbox, for clients that can hold neither a WebSocket nor a webhook. */
export function inboxRoutes({ inbox, limits, maxWaitSeconds, maxWaitingPerAccount, eventFrame }: Deps): Route[] {
  const endpoint = inboxEndpoint({ maxWaitSeconds, maxWaitingPerAccount, eventFrame });
  const { query } = endpoint.doc;
  return [
    {
      ...endpoint,
      handler: async (req: AuthedRequest) => {
        await limits.take('events', req.auth);
        const { since, limit, wait } = validate(query, queryParams(req.query), 'query');
        return inboxReply(await inbox.read(req.auth, { since, limit, waitSeconds: wait }, req.signal));
      },
    },
  ];
}
