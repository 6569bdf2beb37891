import { matchSchema, messageSchema, describedNewMessage, describedReadMark, readStateSchema } from './match-api.js';
import { validate } from '../../platform/core/validation.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import type { MatchService } from './match-service.js';
import type { MessageService } from './message-service.js';
import type { ReadService } from './read-service.js';
import { isActivityCursor, isMessageCursor } from '../../platform/core/page-positions.js';
import { idempotencyKey } from '../../platform/http/idempotency-key.js';
import { pageQuery, pageQuerySchema, toPage } from '../../platform/http/pagination.js';
import { idParam } from '../../platform/http/params.js';
import { json, noContent, type Request, type Route } from '../../platform/http/types.js';
import { page } from '../../platform/http/response-schemas.js';

type Deps = { matches: MatchService; messages: MessageService; reads: ReadService; limits: AccountLimits };

const matchId = (req: Request) => idParam(req.params.match_id, 'match_id');

export function matchRoutes({ matches, messages, reads, limits }: Deps): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/matches',
      auth: true,
      doc: {
        summary: 'Your current matches, latest activity (match or message) first.',
        tags: ['matches'],
        query: pageQuerySchema,
        response: { status: 200, schema: page(matchSchema), description: 'A page of matches.' },
        errors: [400],
      },
      handler: async (req) => {
        return json(200, toPage(await matches.list(req.auth, pageQuery(req.query, isActivityCursor))));
      },
    },
    {
      method: 'GET',
      path: '/api/v1/matches/:match_id',
      auth: true,
      doc: {
        summary: 'One of your current matches.',
        tags: ['matches'],
        response: { status: 200, schema: matchSchema, description: 'The match.' },
        errors: [400, 404, 410],
      },
      handler: async (req) => json(200, await matches.get(req.auth, matchId(req))),
    },
    {
      method: 'DELETE',
      path: '/api/v1/matches/:match_id',
      auth: true,
      doc: {
        summary: 'Unmatch: the match and its conversation (its messages\' events included) are gone for both of you, and neither appears in the other\'s feed again.',
        tags: ['matches'],
        response: { status: 204, description: 'Unmatched.' },
        errors: [400, 404, 410, 507],
      },
      handler: async (req) => {
        await matches.unmatch(req.auth, matchId(req));
        return noContent();
      },
    },
    {
      method: 'GET',
      path: '/api/v1/matches/:match_id/messages',
      auth: true,
      doc: {
        summary: 'The conversation of one of your matches: the newest `limit` messages, oldest first within the page; next_cursor pages towards older messages.',
        tags: ['messages'],
        query: pageQuerySchema,
        response: { status: 200, schema: page(messageSchema), description: 'A page of messages.' },
        errors: [400, 404, 410],
      },
      handler: async (req) => {
        const id = matchId(req);
        return json(200, toPage(await messages.list(req.auth, id, pageQuery(req.query, isMessageCursor))));
      },
    },
    {
      method: 'POST',
      path: '/api/v1/matches/:match_id/messages',
      auth: true,
      body: true,
      doc: {
        summary:
          'Send a message in one of your matches. The body is stored as text (never interpreted as HTML). Send an Idempotency-Key header to make retries safe; the same key for another match or with another body is refused with 409.',
        tags: ['messages'],
        body: describedNewMessage,
        response: { status: 201, schema: messageSchema, description: 'The message.' },
        errors: [400, 404, 409, 410, 413, 415, 429, 507],
        codes: ['idempotency_key_reused'],
      },
      handler: async (req) => {
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
      method: 'POST',
      path: '/api/v1/matches/:match_id/read',
      auth: true,
      body: true,
      doc: {
        summary:
          "Mark the conversation read up to a message (the newest you have read). Never moves back: an older message changes nothing. When the mark moves, the other user gets a message.read event.",
        tags: ['messages'],
        body: describedReadMark,
        response: { status: 200, schema: readStateSchema, description: 'Your read state of the match.' },
        errors: [400, 404, 410, 413, 415, 429, 507],
      },
      handler: async (req) => {
        await limits.take('read', req.auth);
        const id = matchId(req);
        const { message_id } = validate(describedReadMark, req.body);
        return json(200, await reads.markRead(req.auth, id, message_id));
      },
    },
  ];
}
