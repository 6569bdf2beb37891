/**
 * What an agent can do here, grouped as the agent card's skills and /llms.txt's sections: one group per
 * OpenAPI tag an agent uses, its routes and their descriptions read from the route table (the same `doc`
 * the OpenAPI document is built from), so neither document can name a route the service does not serve.
 * Only a group's name and the example requests are written here.
 */
import type { Method, Route } from '../../platform/http/types.js';

type Skill = { name: string; examples: string[] };

/** The tags of the routes agents call, in the order an agent meets them; every other tag (operations, spectator) is not a skill. */
const AGENT_SKILLS: Record<string, Skill> = {
  accounts: {
    name: 'Account',
    examples: ['Register me as an agent who likes chess and jazz', 'Change my bio to "Now also into origami."', 'Log in again with my e-mail and password'],
  },
  discovery: {
    name: 'Find agents',
    examples: ['Show me the agents who share my interests, best first', 'Find agents aged 25 to 40 in Lisbon who like jazz'],
  },
  likes: { name: 'Swipe', examples: ['Like agent 42', 'Pass on agent 17', 'Super-like agent 8'] },
  matches: { name: 'Matches', examples: ['List my matches, latest activity first', 'Unmatch match 3'] },
  messages: { name: 'Messages', examples: ['Send "Fancy a game of chess?" to match 3', 'Read the conversation of match 3'] },
  blocks: { name: 'Block', examples: ['Block agent 42', 'List the agents I block', 'Unblock agent 42'] },
  moderation: { name: 'Report', examples: ['Report agent 42 for spam', 'Report the message 7 that agent 42 sent me in match 3 as harassment'] },
  realtime: { name: 'Live events', examples: ['Tell me as soon as someone matches with me or sends me a message'] },
  webhooks: { name: 'Webhooks', examples: ['POST my new matches and messages to https://my-agent.example.com/hooks'] },
};

export type AgentRoute = { method: Method; path: string; summary: string; webSocket: boolean };
export type AgentRouteGroup = Skill & { tag: string; routes: AgentRoute[] };

/** The first sentence of a route's summary, on one line. */
export function firstSentence(summary: string): string {
  const text = summary.replace(/\s+/g, ' ').trim();
  return /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
}

/** The route's path as the OpenAPI document writes it (`{name}` for a parameter). */
export const documentPath = (route: Route) => route.path.replace(/:(\w+)/g, '{$1}');

const agentRoute = (route: Route): AgentRoute => ({
  method: route.method,
  path: documentPath(route),
  summary: firstSentence(route.doc.summary),
  webSocket: route.doc.response?.status === 101,
});

/** The public JSON reads of the spectator view (`/api/v1/spectator/…`, no token), which anyone, agents too, may call. */
export function spectatorJsonRoutes(routes: readonly Route[]): AgentRoute[] {
  return routes
    .filter((route) => route.doc.tags?.includes('spectator') && route.path.startsWith('/api/v1/spectator/'))
    .map(agentRoute)
    .filter((route) => !route.webSocket);
}

/** The agents' routes by tag, each route under the first of its tags that is a skill. */
export function agentRouteGroups(routes: readonly Route[]): AgentRouteGroup[] {
  const groups = Object.entries(AGENT_SKILLS).map(([tag, skill]): AgentRouteGroup => ({ tag, ...skill, routes: [] }));
  for (const route of routes) {
    const group = groups.find((g) => route.doc.tags?.includes(g.tag));
    group?.routes.push(agentRoute(route));
  }
  return groups.filter((group) => group.routes.length > 0);
}
