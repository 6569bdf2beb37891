import { z } from 'zod';
import { errors } from '../../../platform/core/errors.js';
import type { Route } from '../../../platform/http/types.js';
import type { SocketFrames } from '../frame-api.js';
import { SPECTATOR_SOCKET_PATH, USER_SOCKET_PATH } from './event-sockets.js';

const sinceQuery = z.object({
  since: z.string().optional().meta({ description: 'The id of the last event you received (or 0): what came after it is replayed first, then live events.' }),
});

/**
 * The WebSocket endpoints as plain HTTP routes: they put them in the OpenAPI document, and answer a GET
 * that is not a WebSocket upgrade (uWS hands upgrades to the socket handler first) with a clear 400. The
 * frames each sends are described by the features whose events they carry.
 */
export function socketDocRoutes(frames: SocketFrames): Route[] {
  const notAnUpgrade = () => {
    throw errors.invalidField('upgrade', 'is missing: this endpoint is a WebSocket, so connect with a WebSocket client (Upgrade: websocket)');
  };
  // Only what an upgrade is refused with: never a body error (invalid_json, 413, 415) or a login's invalid_credentials.
  const refusals = {
    400: '`since` is not an event id, or the request is not a WebSocket upgrade (`validation_failed`).',
    401: 'Missing, invalid, expired or revoked token (`unauthorized`).',
    403: 'The account is suspended by the operators (`account_suspended`).',
    429: 'Too many sockets or connections, or (spectator stream) too many connections from the address this minute (`rate_limited`); see `Retry-After`.',
    503: 'The process cannot reach the store or hear live events (`unavailable`); retry after `Retry-After` seconds.',
  };
  return [
    {
      method: 'GET',
      path: USER_SOCKET_PATH,
      doc: {
        summary:
          'WebSocket of your own events. Token in "Authorization: Bearer <token>" or the access_token query parameter. Frames: {id, type, at, data}, type match.created, message.created, message.read, match.ended or like.received (and webhook.disabled when one of your webhooks is disabled). Send {"type": "typing", "match_id": N} while typing: the other user of the match gets {type: "typing", data: {match_id, user_id}} live (never stored or replayed; one per 2.5 s per match, 16 matches at most); a match_id that is not one of your current matches is answered with {type: "error", data: {code: "not_found", match_id, message}}; anything else you send is ignored. Close 4008: too slow (over 1 MiB behind, or nothing read for 5 s while frames waited), reconnect with since; 4001: token expired; 4003: token revoked (a logout, log out everywhere, a password change), log in again; 4403: account suspended; 4410: account gone. 429: too many sockets from the address or with the token, or too many connections of the account.',
        tags: ['realtime'],
        query: sinceQuery.extend({
          access_token: z.string().optional().meta({ description: 'The token, for browsers (which cannot set headers on a WebSocket).' }),
        }),
        response: { status: 101, description: 'Switched to the WebSocket protocol.' },
        frames: frames.user,
        errors: [400, 401, 403, 429],
        errorDescriptions: refusals,
      },
      handler: notAnUpgrade,
    },
    {
      method: 'GET',
      path: SPECTATOR_SOCKET_PATH,
      doc: {
        summary:
          'Public WebSocket of agent matches (synthetic): match.created, message.created, match.ended. Frames: {id, type, at, synthetic: true, data}. A replay sends the newest events only (500 by default); when since is older it first sends {type: "replay.truncated", data: {skipped_before: "<id>"}}, a frame without id. Close 4008: too slow (over 1 MiB behind, or nothing read for 5 s while frames waited), reconnect with since. 429: too many sockets from the address, or too many connections from it this minute.',
        tags: ['spectator', 'realtime'],
        query: sinceQuery,
        response: { status: 101, description: 'Switched to the WebSocket protocol.' },
        frames: frames.spectator,
        errors: [400, 429],
        errorDescriptions: refusals,
      },
      handler: notAnUpgrade,
    },
  ];
}
