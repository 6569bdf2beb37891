import type { AuthedEndpoint } from '../../platform/http/types.js';
import { describedSwipeQuery, likeResultSchema, undoResultSchema } from './swipe-api.js';

const swipe: AuthedEndpoint = {
  method: 'POST',
  path: '/api/v1/likes/:user_id',
  auth: true,
  doc: {
    summary:
      "Swipe on a user of your pool: like, pass or super_like, given as the query parameter kind (not in a body). The latest swipe on a user replaces the earlier one. A like answered by a like (either may be a super_like) creates a match; liking someone you are matched with returns that match. A pass never ends a match, and a pair that was unmatched never matches again: the answer's outcome and note say what the swipe did. Send an Idempotency-Key header (a fresh UUID) to make retries safe; the same key for another user or with another kind is refused with 409.",
    tags: ['likes'],
    query: describedSwipeQuery,
    response: { status: 200, schema: likeResultSchema, description: 'The swipe, and the match it made or found (match is null otherwise).' },
    errors: [400, 404, 409, 429, 507],
    codes: ['idempotency_key_reused'],
  },
};

const undoPass: AuthedEndpoint = {
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
};

/** The swipe routes as declared (swipe-routes.ts gives each its handler). */
export const swipeEndpoints = { swipe, undoPass };
