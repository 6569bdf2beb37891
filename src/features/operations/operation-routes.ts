import { createHash, timingSafeEqual } from 'node:crypto';
import { errors } from '../../platform/core/errors.js';
import type { Metrics } from '../../platform/metrics/metrics.js';
import { buildOpenApi } from '../../platform/http/openapi.js';
import { openApiDocumentSchema } from '../../platform/http/response-schemas.js';
import { agentCard } from './agent-card.js';
import { llmsTxt } from './llms-txt.js';
import { agentCardSchema, healthSchema, readySchema } from './operation-api.js';
import { skillGuide, type GuideLimits } from './skill-guide.js';
import { json, type PublicRequest, type Route } from '../../platform/http/types.js';

/**
 * `storeAnswers`: resolves once Redis answers a ping. `metricsToken`: the operators' bearer secret; without
 * one, /metrics is not served at all. `guideLimits`: the settings /skill.md states (the defaults otherwise).
 */
type Deps = { storeAnswers: () => Promise<unknown>; metrics: Metrics; routes: () => Route[]; metricsToken?: string; guideLimits?: GuideLimits };

/**
 * The service's base URL as the caller reached it, for the documents that name it (/skill.md, the agent card,
 * /llms.txt): the `Host` header when it is a plain host (else `localhost:8080`), over `https` when a proxy says
 * so in `X-Forwarded-Proto`.
 */
function baseUrlOf(req: Pick<PublicRequest, 'headers'>): string {
  const given = req.headers.host ?? '';
  const host = /^[\w.:[\]-]{1,255}$/.test(given) ? given : 'localhost:8080';
  const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  return `${proto}://${host}`;
}

/** Compares digests, so the time taken says nothing about how much of the token was right. */
function bearerMatcher(token: string): (authorization: string | undefined) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
    return timingSafeEqual(createHash('sha256').update(given).digest(), expected);
  };
}

export function operationRoutes({ storeAnswers, metrics, routes, metricsToken, guideLimits }: Deps): Route[] {
  let openapi: string | undefined;
  const metricsRoute: Route[] = [];
  if (metricsToken) {
    const authorized = bearerMatcher(metricsToken);
    metricsRoute.push({
      method: 'GET',
      path: '/metrics',
      doc: {
        summary: 'Prometheus metrics, for operators: send "Authorization: Bearer <METRICS_TOKEN>".',
        tags: ['operations'],
        response: { status: 200, contentType: 'text/plain', description: 'The Prometheus text format.' },
        errors: [401],
      },
      handler: async (req) => {
        if (!authorized(req.headers.authorization)) {
          const message = 'Send the operators\' metrics token as "Authorization: Bearer <METRICS_TOKEN>".';
          throw req.headers.authorization ? errors.invalidToken(message) : errors.unauthorized(message);
        }
        return { status: 200, text: await metrics.render(), contentType: metrics.contentType };
      },
    });
  }
  return [
    {
      method: 'GET',
      path: '/healthz',
      doc: { summary: 'The process is up.', tags: ['operations'], response: { status: 200, schema: healthSchema, description: 'Up.' } },
      handler: () => json(200, { status: 'ok' }),
    },
    {
      method: 'GET',
      path: '/readyz',
      doc: { summary: 'The store is reachable.', tags: ['operations'], response: { status: 200, schema: readySchema, description: 'Ready.' }, errors: [503] },
      handler: async () => {
        try {
          await storeAnswers();
        } catch {
          throw errors.unavailable();
        }
        return json(200, { status: 'ready' });
      },
    },
    ...metricsRoute,
    {
      method: 'GET',
      path: '/api/v1/openapi.json',
      doc: {
        summary: 'This document.',
        tags: ['operations'],
        response: { status: 200, schema: openApiDocumentSchema, description: 'The OpenAPI 3.1 document.' },
      },
      handler: () => ({ status: 200, text: (openapi ??= JSON.stringify(buildOpenApi(routes()))), contentType: 'application/json; charset=utf-8' }),
    },
    {
      method: 'GET',
      path: '/skill.md',
      doc: {
        summary: 'A short guide for LLM agents, with copy-paste examples.',
        tags: ['operations'],
        response: { status: 200, contentType: 'text/markdown', description: 'The guide, in Markdown.' },
      },
      handler: (req) => ({ status: 200, text: skillGuide(baseUrlOf(req), guideLimits), contentType: 'text/markdown; charset=utf-8' }),
    },
    {
      method: 'GET',
      path: '/.well-known/agent-card.json',
      doc: {
        summary: "The A2A agent card of this service: its skills (the agents' routes), and how to get a token.",
        tags: ['operations'],
        response: { status: 200, schema: agentCardSchema, description: 'The agent card.' },
      },
      handler: (req) => json(200, agentCard(baseUrlOf(req), routes())),
    },
    {
      method: 'GET',
      path: '/llms.txt',
      doc: {
        summary: 'Where an agent starts (the llms.txt format): links to the guide, the OpenAPI document, the agent card and every route agents call.',
        tags: ['operations'],
        response: { status: 200, contentType: 'text/plain', description: 'The llms.txt, in Markdown.' },
      },
      handler: (req) => {
        const base = baseUrlOf(req);
        return { status: 200, text: llmsTxt(base, routes(), skillGuide(base, guideLimits)), contentType: 'text/plain; charset=utf-8' };
      },
    },
  ];
}
