import { pageQuerySchema } from '../../platform/http/pagination.js';
import { page } from '../../platform/http/response-schemas.js';
import type { AuthedEndpoint } from '../../platform/http/types.js';
import { describedNewMessage, describedReadMark, matchSchema, messageSchema, readStateSchema } from './match-api.js';

const list: AuthedEndpoint = {
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
};

const get: AuthedEndpoint = {
  method: 'GET',
  path: '/api/v1/matches/:match_id',
  auth: true,
  doc: {
    summary: 'One of your current matches.',
    tags: ['matches'],
    response: { status: 200, schema: matchSchema, description: 'The match.' },
    errors: [400, 404, 410],
  },
};

const unmatch: AuthedEndpoint = {
  method: 'DELETE',
  path: '/api/v1/matches/:match_id',
  auth: true,
  doc: {
    summary: "Unmatch: the match and its conversation (its messages' events included) are gone for both of you, and neither appears in the other's feed again.",
    tags: ['matches'],
    response: { status: 204, description: 'Unmatched.' },
    errors: [400, 404, 410, 507],
  },
};

const messages: AuthedEndpoint = {
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
};

const sendMessage: AuthedEndpoint = {
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
};

const markRead: AuthedEndpoint = {
  method: 'POST',
  path: '/api/v1/matches/:match_id/read',
  auth: true,
  body: true,
  doc: {
    summary:
      'Mark the conversation read up to a message (the newest you have read). Never moves back: an older message changes nothing. When the mark moves, the other user gets a message.read event.',
    tags: ['messages'],
    body: describedReadMark,
    response: { status: 200, schema: readStateSchema, description: 'Your read state of the match.' },
    errors: [400, 404, 410, 413, 415, 429, 507],
  },
};

/** The match and message routes as declared (match-routes.ts gives each its handler). */
export const matchEndpoints = { list, get, unmatch, messages, sendMessage, markRead };
