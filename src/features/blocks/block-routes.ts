import { isActivityCursor } from '../../platform/core/page-positions.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import { pageQuery, toPage } from '../../platform/http/pagination.js';
import { idParam } from '../../platform/http/params.js';
import { json, noContent, type Request, type Route, type AuthedRequest } from '../../platform/http/types.js';
import { blockEndpoints as endpoints } from './block-endpoints.js';
import type { BlockService } from './block-service.js';

type Deps = { blocks: BlockService; limits: AccountLimits };

const userId = (req: Request) => idParam(req.params.user_id, 'user_id');

export function blockRoutes({ blocks, limits }: Deps): Route[] {
  return [
    {
      ...endpoints.block,
      handler: async (req: AuthedRequest) => {
        const target = userId(req);
        await limits.take('block', req.auth);
        const { created, block } = await blocks.block(req.auth, target);
        return json(created ? 201 : 200, block);
      },
    },
    {
      ...endpoints.unblock,
      handler: async (req: AuthedRequest) => {
        const target = userId(req);
        await limits.take('block', req.auth);
        await blocks.unblock(req.auth, target);
        return noContent();
      },
    },
    {
      ...endpoints.list,
      handler: async (req: AuthedRequest) => json(200, toPage(await blocks.list(req.auth, pageQuery(req.query, isActivityCursor)))),
    },
  ];
}
