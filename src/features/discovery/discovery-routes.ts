import { validate } from '../../platform/core/validation.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import type { DiscoveryService } from './discovery-service.js';
import type { FeedPosition } from '../../platform/core/page-positions.js';
import { browseQuerySchema } from './browse-api.js';
import { pageQuery, pageRequest, toPage } from '../../platform/http/pagination.js';
import { queryParams } from '../../platform/http/params.js';
import { json, type Route, type AuthedRequest } from '../../platform/http/types.js';
import type { PageRequest } from '../../platform/core/page.js';
import { discoveryEndpoints as endpoints } from './discovery-endpoints.js';

type Deps = { discovery: DiscoveryService; limits: AccountLimits };

/** Parameters that take a comma list may also be repeated; their values are joined. */
const LIST_PARAMS = new Set(['gender', 'interests']);

type FeedCursor = { p: 'r' | 't'; s: number; i: number };
type BrowseCursor = { i: number };

const isId = (v: Record<string, unknown>) => Number.isSafeInteger(v.i) && (v.i as number) > 0;
const isFeedCursor = (v: unknown): v is FeedCursor =>
  typeof v === 'object' &&
  v !== null &&
  ((v as FeedCursor).p === 'r' || (v as FeedCursor).p === 't') &&
  Number.isFinite((v as FeedCursor).s) &&
  isId(v as Record<string, unknown>);
/** A browse cursor holds the id alone: one with any other field was not issued by this version. */
const isBrowseCursor = (v: unknown): v is BrowseCursor =>
  typeof v === 'object' && v !== null && Object.keys(v).length === 1 && isId(v as Record<string, unknown>);

export function discoveryRoutes({ discovery, limits }: Deps): Route[] {
  return [
    {
      ...endpoints.feed,
      handler: async (req: AuthedRequest) => {
        // Counted while the feed's first reads are sent (DiscoveryService.feed waits on it before any other).
        const admitted = limits.take('discovery', req.auth);
        let query: PageRequest<FeedCursor>;
        try {
          query = pageQuery(req.query, isFeedCursor);
        } catch (error) {
          await admitted; // a caller over its limit is answered 429 first, as for any other request
          throw error;
        }
        const { limit, after: c } = query;
        const after: FeedPosition | undefined = c ? { part: c.p, score: c.s, id: c.i } : undefined;
        const result = await discovery.feed(req.auth, { limit, after }, admitted);
        const { remaining, exhausted } = result;
        return json(200, { ...toPage(result, (next): FeedCursor => ({ p: next.part, s: next.score, i: next.id })), remaining, exhausted });
      },
    },
    {
      ...endpoints.browse,
      handler: async (req: AuthedRequest) => {
        await limits.take('discovery', req.auth);
        const { limit, cursor, ...filters } = validate(browseQuerySchema, queryParams(req.query, LIST_PARAMS), 'query');
        const { after: c } = pageRequest({ limit, cursor }, isBrowseCursor);
        const result = await discovery.browse(req.auth, filters, { limit, after: c ? { id: c.i } : undefined });
        return json(
          200,
          toPage(result, (next): BrowseCursor => ({ i: next.id })),
        );
      },
    },
  ];
}
