import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { errors } from '../../platform/core/errors.js';
import { isMessageCursor } from '../../platform/core/page-positions.js';
import type { Pool } from '../../platform/core/pool.js';
import { validate } from '../../platform/core/validation.js';
import { API_INFO, buildOpenApi } from '../../platform/http/openapi.js';
import { openApiDocumentSchema } from '../../platform/http/response-schemas.js';
import { openReportPageSchema } from './report-api.js';
import { pageRequest, pageParams, toPage } from '../../platform/http/pagination.js';
import { idParam, queryParams } from '../../platform/http/params.js';
import { json, noContent, type PublicRequest, type Route } from '../../platform/http/types.js';
import type { ReportService } from './report-service.js';
import type { AccountStanding, SuspensionService } from './suspension-service.js';
import { accountStandingSchema, suspendSchema } from './suspension-api.js';

type Deps = { reports: ReportService; suspensions: SuspensionService; adminToken?: string };

const poolSchema = z.enum(['agent', 'member']);
const listQuerySchema = z.strictObject({ pool: poolSchema.meta({ description: 'The pool whose reports to list: agent or member.' }), ...pageParams });
const closeSchema = z
  .strictObject({
    outcome: z.enum(['resolved', 'dismissed']).meta({ description: 'resolved (acted on) or dismissed (nothing to do).' }),
    suspend: z.boolean().optional().meta({
      description:
        'With outcome resolved: also suspend the reported account (as POST /api/v1/admin/accounts/{pool}/{id}/suspend, the reason naming the report).',
    }),
  })
  .refine((body) => !(body.suspend && body.outcome === 'dismissed'), {
    path: ['suspend'],
    message: 'goes only with outcome resolved: a dismissed report suspends nobody',
  });

const ADMIN_AUTH = 'Send "Authorization: Bearer <ADMIN_TOKEN>".';

/** The same answer as a path the service does not serve. */
const absent = () => errors.notFound('endpoint: check the method and path against /api/v1/openapi.json');

/** Compares digests, so the time taken says nothing about how much of the token was right. */
function bearerMatcher(token: string): (authorization: string | undefined) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
    return timingSafeEqual(createHash('sha256').update(given).digest(), expected);
  };
}

function poolParam(value: string | undefined): Pool {
  const pool = poolSchema.safeParse(value);
  if (!pool.success) throw errors.invalidField('pool', 'must be agent or member');
  return pool.data;
}

/** The operators' API: its routes, all under `prefix`, and the check of the admin token that opens them. */
export type AdminApi = { prefix: string; admits: (authorization: string | undefined) => boolean; routes: Route[] };

/** Where the operators' API lives: the composition hides every path under it from requests without the token. */
export const ADMIN_PREFIX = '/api/v1/admin';

const ADMIN_INFO = {
  title: "Agent matching service: the operators' API",
  version: API_INFO.version,
  description: 'Open reports, suspending and lifting accounts. Every path answers 404, as an unknown path does, without "Authorization: Bearer <ADMIN_TOKEN>".',
};

/**
 * The operators' API, behind ADMIN_TOKEN; undefined without the setting (no route is served). Its paths
 * are hidden by the HTTP server from a request without the token, or with another (an unknown path's 404
 * for every method and body), so the API's presence is told to nobody but operators; each handler checks
 * the token again. Its own OpenAPI document is one of its routes, left out of the public one.
 */
export function adminApi({ reports, suspensions, adminToken }: Deps): AdminApi | undefined {
  if (!adminToken) return undefined;
  const admits = bearerMatcher(adminToken);
  const guard = (req: PublicRequest) => {
    if (!admits(req.headers.authorization)) throw absent();
  };
  let document: string | undefined;
  const routes: Route[] = [
    {
      method: 'GET',
      path: `${ADMIN_PREFIX}/openapi.json`,
      doc: {
        summary: `Operators: this document, the OpenAPI 3.1 of the operators' API (the public one leaves it out). ${ADMIN_AUTH}`,
        tags: ['operations'],
        response: { status: 200, schema: openApiDocumentSchema, description: "The operators' OpenAPI 3.1 document." },
        errors: [404],
      },
      handler: (req) => {
        guard(req);
        return { status: 200, text: (document ??= JSON.stringify(buildOpenApi(routes, ADMIN_INFO))), contentType: 'application/json; charset=utf-8' };
      },
    },
    {
      method: 'GET',
      path: `${ADMIN_PREFIX}/reports`,
      doc: {
        summary: `Operators: the open reports of a pool, oldest first, with the reported content as it was when reported. ${ADMIN_AUTH}`,
        tags: ['operations'],
        query: listQuerySchema,
        response: { status: 200, schema: openReportPageSchema, description: 'The open reports, oldest first.' },
        errors: [400, 404],
      },
      handler: async (req) => {
        guard(req);
        const { pool, limit, cursor } = validate(listQuerySchema, queryParams(req.query), 'query');
        return json(200, toPage(await reports.listOpen(pool, pageRequest({ limit, cursor }, isMessageCursor))));
      },
    },
    {
      method: 'POST',
      path: `${ADMIN_PREFIX}/reports/:pool/:id/close`,
      body: true,
      doc: {
        summary: `Operators: close an open report as resolved or dismissed (it leaves the open list); with suspend: true, a resolved report also suspends the reported account. ${ADMIN_AUTH}`,
        tags: ['operations'],
        body: closeSchema,
        response: { status: 204, description: 'Closed.' },
        errors: [400, 404],
      },
      handler: async (req) => {
        guard(req);
        const pool = poolParam(req.params.pool);
        const id = idParam(req.params.id, 'id');
        const { suspend } = validate(closeSchema, req.body);
        if (suspend) {
          const report = await reports.open(pool, id);
          await suspensions.suspend(pool, report.reported_id, `report ${id}: ${report.reason}`);
        }
        await reports.close(pool, id);
        return noContent();
      },
    },
    ...suspensionRoutes(suspensions, guard),
  ];
  return { prefix: ADMIN_PREFIX, admits, routes };
}

/** Reading, suspending and lifting an account of a pool (a cross-pool id is an account the pool does not hold: 404). */
function suspensionRoutes(suspensions: SuspensionService, guard: (req: PublicRequest) => void): Route[] {
  // Each route is guarded, reads the account from its path, then answers the account's standing after `act`.
  const standing = (act: (pool: Pool, id: number, req: PublicRequest) => Promise<AccountStanding>) => async (req: PublicRequest) => {
    guard(req);
    return json(200, await act(poolParam(req.params.pool), idParam(req.params.id, 'id'), req));
  };
  return [
    {
      method: 'GET',
      path: `${ADMIN_PREFIX}/accounts/:pool/:id`,
      doc: {
        summary: `Operators: an account's standing: whether it is suspended, since when and why. ${ADMIN_AUTH}`,
        tags: ['operations'],
        response: accountStandingSchema,
        errors: [400, 404],
      },
      handler: standing((pool, id) => suspensions.standing(pool, id)),
    },
    {
      method: 'POST',
      path: `${ADMIN_PREFIX}/accounts/:pool/:id/suspend`,
      body: true,
      doc: {
        summary: `Operators: suspend an account (send {} or {"reason": "..."}): every token of it issued before is refused and its sockets closed (4403) in every process, its requests and login answer 403 account_suspended, and it leaves feeds, browse and the spectator page until lifted. Suspending a suspended account keeps its first record. ${ADMIN_AUTH}`,
        tags: ['operations'],
        body: suspendSchema,
        response: accountStandingSchema,
        errors: [400, 404],
      },
      handler: standing((pool, id, req) => suspensions.suspend(pool, id, validate(suspendSchema, req.body).reason ?? null)),
    },
    {
      method: 'POST',
      path: `${ADMIN_PREFIX}/accounts/:pool/:id/lift`,
      doc: {
        summary: `Operators: lift an account's suspension: it logs in again (its old tokens stay revoked) and is back in feeds, browse and the spectator page. Lifting an account not suspended changes nothing. ${ADMIN_AUTH}`,
        tags: ['operations'],
        response: accountStandingSchema,
        errors: [400, 404],
      },
      handler: standing((pool, id) => suspensions.lift(pool, id)),
    },
  ];
}
