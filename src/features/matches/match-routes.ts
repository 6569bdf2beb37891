import { describedNewMessage, describedReadMark } from './match-api.js';
import { matchEndpoints as endpoints } from './match-endpoints.js';
import { validate } from '../../platform/core/validation.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import type { MatchService } from './match-service.js';
import type { MessageService } from './message-service.js';
import type { ReadService } from './read-service.js';
import { isActivityCursor, isMessageCursor } from '../../platform/core/page-positions.js';
import { idempotencyKey } from '../../platform/http/idempotency-key.js';
import { pageQuery, toPage } from '../../platform/http/pagination.js';
import { idParam } from '../../platform/http/params.js';
import { json, noContent, type Request, type Route, type AuthedRequest } from '../../platform/http/types.js';

type Deps = { matches: MatchService; messages: MessageService; reads: ReadService; limits: AccountLimits };

const matchId = (req: Request) => idParam(req.params.match_id, 'match_id');

export function matchRoutes({ matches, messages, reads, limits }: Deps): Route[] {
  return [
    {
      ...endpoints.list,
      handler: async (req: AuthedRequest) => {
        return json(200, toPage(await matches.list(req.auth, pageQuery(req.query, isActivityCursor))));
      },
    },
    {
      ...endpoints.get,
      handler: async (req: AuthedRequest) => json(200, await matches.get(req.auth, matchId(req))),
    },
    {
      ...endpoints.unmatch,
      handler: async (req: AuthedRequest) => {
        await matches.unmatch(req.auth, matchId(req));
        return noContent();
      },
    },
    {
      ...endpoints.messages,
      handler: async (req: AuthedRequest) => {
        const id = matchId(req);
        return json(200, toPage(await messages.list(req.auth, id, pageQuery(req.query, isMessageCursor))));
      },
    },
    {
      ...endpoints.sendMessage,
      handler: async (req: AuthedRequest) => {
        // The limit is counted while the match is checked, in the same round trip; its refusal still comes first.
        const admitted = limits.take('message', req.auth);
        try {
          const id = matchId(req);
          const { body } = validate(describedNewMessage, req.body);
          return json(201, await messages.send(req.auth, id, body, idempotencyKey(req.headers), admitted));
        } finally {
          await admitted;
        }
      },
    },
    {
      ...endpoints.markRead,
      handler: async (req: AuthedRequest) => {
        await limits.take('read', req.auth);
        const id = matchId(req);
        const { message_id } = validate(describedReadMark, req.body);
        return json(200, await reads.markRead(req.auth, id, message_id));
      },
    },
  ];
}
