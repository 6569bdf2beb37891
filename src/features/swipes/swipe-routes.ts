import { describedSwipeQuery } from './swipe-api.js';
import { swipeEndpoints as endpoints } from './swipe-endpoints.js';
import { validate } from '../../platform/core/validation.js';
import type { SwipeService } from './swipe-service.js';
import { idempotencyKey } from '../../platform/http/idempotency-key.js';
import { idParam, queryParams } from '../../platform/http/params.js';
import { json, type Route, type AuthedRequest } from '../../platform/http/types.js';
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
      ...endpoints.swipe,
      handler: async (req: AuthedRequest) => {
        const targetId = idParam(req.params.user_id, 'user_id');
        const kind = swipeKindOf(req.queryString) ?? validate(describedSwipeQuery, queryParams(req.query), 'query').kind;
        return json(200, await swipes.swipe(req.auth, targetId, kind, idempotencyKey(req.headers)));
      },
    },
    {
      ...endpoints.undoPass,
      handler: async (req: AuthedRequest) => json(200, await swipes.undoPass(req.auth, idParam(req.params.user_id, 'user_id'))),
    },
  ];
}
