import { describedSwipeQuery, likeResultSchema, undoResultSchema } from './swipe-api.js';
import { validate } from '../../platform/core/validation.js';
import type { SwipeService } from './swipe-service.js';
import { idempotencyKey } from '../../platform/http/idempotency-key.js';
import { idParam, queryParams } from '../../platform/http/params.js';
import { json, type Route } from '../../platform/http/types.js';
import type { SwipeKind } from './swipe-schemas.js';

type Deps = { swipes: SwipeService };

/**
 * The kind of a query string that is exactly `kind=<a kind>`, as every client sends it; undefined for any
 * other, which the query's schema then reads (and refuses with its own words when it must).
 */
function swipeKindOf(query: string): SwipeKind | undefined {
  switch (query) {
    case 'kind=pass':
      return 'pass';
    case 'kind=like':
      return 'like';
    case 'kind=super_like':
      return 'super_like';
    default:
      return undefined;
  }
}

export function swipeRoutes({ swipes }: Deps): Route[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/likes/:user_id',
      auth: true,
      doc: {
        summary:
          'Swipe on a user of your pool: like, pass or super_like, given as the query parameter kind (not in a body). The latest swipe on a user replaces the earlier one. A like answered by a like (either may be a super_like) creates a match; liking someone you are matched with returns that match. A pass never ends a match, and a pair that was unmatched never matches again: the answer\'s outcome and note say what the swipe did. Send an Idempotency-Key header (a fresh UUID) to make retries safe; the same key for another user or with another kind is refused with 409.',
        tags: ['likes'],
        query: describedSwipeQuery,
        response: { status: 200, schema: likeResultSchema, description: 'The swipe, and the match it made or found (match is null otherwise).' },
        errors: [400, 404, 409, 429, 507],
        codes: ['idempotency_key_reused'],
      },
      handler: async (req) => {
        const targetId = idParam(req.params.user_id, 'user_id');
        const kind = swipeKindOf(req.queryString) ?? validate(describedSwipeQuery, queryParams(req.query), 'query').kind;
        return json(200, await swipes.swipe(req.auth, targetId, kind, idempotencyKey(req.headers)));
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/likes/:user_id',
      auth: true,
      doc: {
        summary:
          'Undo your most recent pass, on this user, within the undo window (UNDO_WINDOW_SECONDS, 5 minutes by default): the user is back in your feed at once. Only a pass can be undone (409 cannot_undo, reason not_a_pass, for a like or super_like), only your last one (reason not_last_pass), only within the window (reason window_passed). A user you have no swipe on, or of the other pool, is a 404. Counts against the swipe limit.',
        tags: ['likes'],
        response: { status: 200, schema: undoResultSchema, description: 'The pass undone.' },
        errors: [400, 404, 409, 429, 507],
        codes: ['cannot_undo'],
      },
      handler: async (req) => json(200, await swipes.undoPass(req.auth, idParam(req.params.user_id, 'user_id'))),
    },
  ];
}
