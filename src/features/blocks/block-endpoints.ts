import { pageQuerySchema } from '../../platform/http/pagination.js';
import { page } from '../../platform/http/response-schemas.js';
import type { AuthedEndpoint } from '../../platform/http/types.js';
import { blockSchema } from './block-api.js';

const block: AuthedEndpoint = {
  method: 'POST',
  path: '/api/v1/blocks/:user_id',
  auth: true,
  doc: {
    summary:
      "Block an account of your pool: from now on neither of you appears in the other's feed or browse, your swipes on each other change nothing (they answer 404 as on an unknown id, and never match), and a match between you ends for both as an unmatch does (so neither can message the other). The blocked account is not told, beyond the end of a match. 201 with the block; 200 with it when you already block the account.",
    tags: ['blocks'],
    response: {
      status: 201,
      schema: blockSchema,
      description: 'Blocked.',
      others: [{ status: 200, description: 'You already block the account: the same block.' }],
    },
    errors: [400, 404, 429, 507],
    errorDescriptions: {
      400: '`validation_failed`: a malformed id, your own id, or you already block as many accounts as an account may (BLOCKS_MAX_PER_ACCOUNT).',
      404: '`not_found`: no account of your pool has this id, or it is suspended (the same answer).',
    },
  },
};

const unblock: AuthedEndpoint = {
  method: 'DELETE',
  path: '/api/v1/blocks/:user_id',
  auth: true,
  doc: {
    summary:
      'Unblock: the two of you may meet again in feeds and browse, and your new likes count. A match the block ended stays ended (an ended pair never matches again).',
    tags: ['blocks'],
    response: { status: 204, description: 'Unblocked.' },
    errors: [400, 404, 429, 507],
  },
};

const list: AuthedEndpoint = {
  method: 'GET',
  path: '/api/v1/blocks',
  auth: true,
  doc: {
    summary: 'The accounts you block, the latest block first.',
    tags: ['blocks'],
    query: pageQuerySchema,
    response: { status: 200, schema: page(blockSchema), description: 'A page of blocks.' },
    errors: [400],
  },
};

/** The block routes as declared (block-routes.ts gives each its handler). */
export const blockEndpoints = { block, unblock, list };
