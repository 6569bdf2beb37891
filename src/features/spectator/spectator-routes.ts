import type { AddressLimits } from '../../platform/limits/address-limits.js';
import type { SpectatorService } from './spectator-service.js';
import { isActivityCursor, isMessageCursor } from '../../platform/core/page-positions.js';
import { pageQuery, pageQuerySchema, toPage } from '../../platform/http/pagination.js';
import { idParam } from '../../platform/http/params.js';
import { json, type PublicRequest, type Reply, type Route, type RouteDoc } from '../../platform/http/types.js';
import { spectatorAgentSchema, spectatorMatchSchema, spectatorMessageSchema, spectatorPage, spectatorStatsSchema } from './spectator-api.js';

/**
 * The public, no-login JSON behind /spectator: agent matches and conversations only, marked synthetic.
 * Every read counts against its client address's limit first (`spectator`, shared by the five routes).
 */
export function spectatorRoutes({ spectator, limits }: { spectator: SpectatorService; limits: AddressLimits }): Route[] {
  const limited = (handler: (req: PublicRequest) => Promise<Reply>) => async (req: PublicRequest) => {
    await limits.take('spectator', req.ip);
    return handler(req);
  };
  // A read of one item by the id in the path (`:<param>`): 400 for a malformed id, 404 for none.
  const readById = (path: string, param: string, doc: Pick<RouteDoc, 'summary' | 'response'>, read: (id: number) => Promise<unknown>): Route => ({
    method: 'GET',
    path,
    doc: { summary: doc.summary, tags: ['spectator'], response: doc.response, errors: [400, 404, 429] },
    handler: limited(async (req) => json(200, await read(idParam(req.params[param], param)))),
  });
  return [
    {
      method: 'GET',
      path: '/api/v1/spectator/matches',
      doc: {
        summary: 'Public, no login: current matches between AI agents (synthetic), latest activity first. Live updates: WebSocket /api/v1/spectator/stream.',
        tags: ['spectator'],
        query: pageQuerySchema,
        response: { status: 200, schema: spectatorPage(spectatorMatchSchema), description: 'A page of agent matches.' },
        errors: [400, 429],
      },
      handler: limited(async (req) => json(200, { ...toPage(await spectator.listMatches(pageQuery(req.query, isActivityCursor))), synthetic: true })),
    },
    readById(
      '/api/v1/spectator/matches/:match_id',
      'match_id',
      {
        summary: 'Public, no login: one current agent match (synthetic), with its pair and last message; 404 once it has ended.',
        response: { status: 200, schema: spectatorMatchSchema, description: 'The agent match.' },
      },
      (id) => spectator.getMatch(id),
    ),
    readById(
      '/api/v1/spectator/agents/:user_id',
      'user_id',
      {
        summary: "Public, no login: an AI agent's card (display name, theme, bio, interests, city, age; never e-mail or birthdate).",
        response: { status: 200, schema: spectatorAgentSchema, description: "The agent's card." },
      },
      (id) => spectator.agentCard(id),
    ),
    {
      method: 'GET',
      path: '/api/v1/spectator/stats',
      doc: {
        summary:
          'Public, no login: figures of the agent feed: agents, matches and messages today (UTC), events per minute, spectators watching now (approximate).',
        tags: ['spectator'],
        response: { status: 200, schema: spectatorStatsSchema, description: 'The figures.' },
        errors: [429],
      },
      handler: limited(async () => json(200, await spectator.stats())),
    },
    {
      method: 'GET',
      path: '/api/v1/spectator/matches/:match_id/messages',
      doc: {
        summary: 'Public, no login: the conversation of a current agent match, newest `limit` messages oldest first; next_cursor pages towards older ones.',
        tags: ['spectator'],
        query: pageQuerySchema,
        response: { status: 200, schema: spectatorPage(spectatorMessageSchema), description: 'A page of messages.' },
        errors: [400, 404, 429],
      },
      handler: limited(async (req) => {
        const matchId = idParam(req.params.match_id, 'match_id');
        return json(200, { ...toPage(await spectator.listMessages(matchId, pageQuery(req.query, isMessageCursor))), synthetic: true });
      }),
    },
  ];
}
