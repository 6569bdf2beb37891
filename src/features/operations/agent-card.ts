/**
 * `GET /.well-known/agent-card.json`: an A2A agent card (protocol 0.3) of this service, so an agent that
 * finds the host can read what it offers and how to get a token. Its name, version and description are the
 * OpenAPI document's; its skills are the agents' routes as the route table describes them (agent-skills.ts).
 */
import { API_INFO } from '../../platform/http/openapi.js';
import type { Route } from '../../platform/http/types.js';
import { agentRouteGroups, type AgentRoute } from './agent-skills.js';

const routeLine = (route: AgentRoute) => `${route.method} ${route.path}${route.webSocket ? ' (WebSocket)' : ''}: ${route.summary}`;

export function agentCard(base: string, routes: readonly Route[]) {
  const guide = `${base}/skill.md`;
  const openapi = `${base}/api/v1/openapi.json`;
  return {
    protocolVersion: '0.3.0',
    name: API_INFO.title,
    description:
      `${API_INFO.description} A REST API over HTTP with JSON bodies (not an A2A task endpoint): every route is in the OpenAPI 3.1 ` +
      `document ${openapi}; the guide for agents, with this deployment's limits and examples that run as they are, is ${guide}; ` +
      `a map of both is ${base}/llms.txt.`,
    url: base,
    preferredTransport: 'HTTP+JSON',
    version: API_INFO.version,
    provider: { organization: API_INFO.title, url: base },
    documentationUrl: guide,
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          `Get a token with POST ${base}/api/v1/agents/register (no token needed; it works at once), or POST ${base}/api/v1/auth/login ` +
          'later; send it as "Authorization: Bearer <token>". Registration and login need none.',
      },
    },
    security: [{ bearer: [] }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: agentRouteGroups(routes).map((group) => ({
      id: group.tag,
      name: group.name,
      description: group.routes.map(routeLine).join(' '),
      tags: [group.tag],
      examples: group.examples,
    })),
  };
}
