import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentMatchTools } from '../../src/clients/mcp/tools.js';
import { registerAgent } from '../support/accounts.js';
import { callTool, mcpServers, type ToolResult } from '../support/mcp-client.js';
import { TOOL_ROUTES } from '../support/mcp-tool-routes.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
let tools: Tool[];
let doc: { paths: Record<string, Record<string, Operation>> };

// Every attempt at a password change counts against the account's limit: the probes make many.
beforeAll(async () => {
  stack = await startStack({ CREDENTIALS_RATE_LIMIT: 100_000 });
  doc = (await stack.api.get('/api/v1/openapi.json')).body;
});
afterAll(() => stack?.stop());

const startServer = mcpServers(() => stack.baseUrl);

type Schema = { type?: string | string[]; minimum?: number; maximum?: number; minLength?: number; maxLength?: number };
type Operation = { summary: string; parameters?: { name: string; in: 'path' | 'query' }[]; requestBody?: unknown };

const operationOf = (name: string): Operation => {
  const [method, path] = TOOL_ROUTES[name]!;
  const operation = doc.paths[path]?.[method];
  expect(operation, `${name}: ${method} ${path}`).toBeDefined();
  return operation!;
};

/** Values just inside and just outside each bound a property states. */
function probes(schema: Schema): unknown[] {
  const values: unknown[] = [];
  const integer = schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));
  if (integer && schema.minimum !== undefined) values.push(schema.minimum, schema.minimum - 1);
  if (integer && schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) values.push(schema.maximum, schema.maximum + 1);
  if (schema.type === 'string' && schema.minLength !== undefined && schema.minLength > 0)
    values.push('x'.repeat(schema.minLength), 'x'.repeat(schema.minLength - 1));
  if (schema.type === 'string' && schema.maxLength !== undefined) values.push('x'.repeat(schema.maxLength), 'x'.repeat(schema.maxLength + 1));
  return values;
}

/** Whether a refusal names `field` (or a field inside it). */
const refuses = (status: number, body: { error?: { details?: { field: string }[] } }, field: string) =>
  status === 400 && (body.error?.details ?? []).some((problem) => problem.field === field || problem.field.startsWith(`${field}.`));

/** The same call through the REST route: a path parameter in the path, a query parameter in the query, anything else in the body. */
async function restCall(name: string, args: Record<string, unknown>, token: string) {
  const [method, template] = TOOL_ROUTES[name]!;
  const operation = operationOf(name);
  const places = new Map((operation.parameters ?? []).map((parameter) => [parameter.name, parameter.in]));
  let path = template;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (places.get(key) === 'path') path = path.replace(`{${key}}`, encodeURIComponent(String(value)));
    else if (places.get(key) === 'query') query.set(key, String(value));
    else body[key] = value;
  }
  const url = query.size > 0 ? `${path}?${query}` : path;
  return stack.api.request(method.toUpperCase(), url, { token, ...(operation.requestBody ? { body } : {}) });
}

/** A valid value for each path parameter: the route reads its path before anything else, and stops at a bad one. */
function pathArguments(name: string): Record<string, unknown> {
  const places = operationOf(name).parameters ?? [];
  return Object.fromEntries(places.filter((p) => p.in === 'path').map((p) => [p.name, p.name === 'id' ? 'wh_000000000000000000000000' : 1]));
}

/** Another argument out of its bounds, so that a probe never waits (events) nor changes anything but through the probed field. */
const SPOILERS: Record<string, Record<string, unknown>> = { events: { limit: 0 } };

describe('each MCP tool is its REST route', () => {
  let client: Client;
  beforeAll(async () => {
    client = (await startServer({ AGENT_MATCH_TOKEN: (await registerAgent(stack.api)).token })).client;
    tools = (await client.listTools()).tools;
  });

  it("calls its route, and has the route's summary in its description", () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(TOOL_ROUTES).sort());
    for (const tool of agentMatchTools) {
      const [method, path] = TOOL_ROUTES[tool.name]!;
      expect([tool.endpoint.method.toLowerCase(), tool.endpoint.path.replace(/:(\w+)/g, '{$1}')], tool.name).toEqual([method, path]);
    }
    for (const tool of tools) expect(tool.description, tool.name).toContain(operationOf(tool.name).summary);
  });

  it('gives the same verdict as its route on a value just inside and just outside each bound', async () => {
    const account = await registerAgent(stack.api);
    const probing = (await startServer({ AGENT_MATCH_TOKEN: account.token })).client;
    let compared = 0;
    for (const tool of tools) {
      for (const [field, schema] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Schema>)) {
        for (const value of probes(schema)) {
          const args = { ...pathArguments(tool.name), ...SPOILERS[tool.name], [field]: value };
          const viaTool = await callTool(probing, tool.name, args);
          const viaRoute = await restCall(tool.name, args, account.token);
          const what = `${tool.name} ${field}=${JSON.stringify(value).slice(0, 20)}: tool ${JSON.stringify(viaTool.structuredContent).slice(0, 300)}, route ${viaRoute.status} ${JSON.stringify(viaRoute.body).slice(0, 300)}`;
          expect(refuses(viaTool.structuredContent?.status ?? 0, viaTool.structuredContent ?? {}, field), what).toBe(
            refuses(viaRoute.status, viaRoute.body, field),
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
  }, 180_000);

  it('is read-only only for a GET, destructive where it ends something, and idempotent only where a second call answers the same', async () => {
    for (const tool of tools) {
      const [method] = TOOL_ROUTES[tool.name]!;
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(method === 'get');
    }
    const flagged = (hint: 'destructiveHint' | 'idempotentHint') =>
      tools
        .filter((tool) => tool.annotations?.[hint] === true)
        .map((tool) => tool.name)
        .sort();
    expect(flagged('destructiveHint')).toEqual(['block_user', 'delete_webhook', 'leave', 'logout_everywhere', 'unmatch']);
    expect(flagged('idempotentHint')).toEqual(['block_user', 'mark_read', 'update_profile', 'update_webhook']);
  });

  it('answers a second idempotent call as the first, and a second unmatch with 410', async () => {
    const [ada, bo] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    const mcp = (await startServer({ AGENT_MATCH_TOKEN: ada.token })).client;
    await stack.api.post(`/api/v1/likes/${bo.user_id}?kind=like`, { token: ada.token });
    const liked = await stack.api.post(`/api/v1/likes/${ada.user_id}?kind=like`, { token: bo.token });
    const matchId = liked.body.match.id as number;
    const sent = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: bo.token, body: { body: 'Hi Ada' } });
    const twice = async (name: string, args: Record<string, unknown>) => {
      const [first, second] = [await callTool(mcp, name, args), await callTool(mcp, name, args)];
      expect(first.isError, `${name}: ${JSON.stringify(first.structuredContent)}`).toBeFalsy();
      expect(second.structuredContent, name).toEqual(first.structuredContent);
    };
    await twice('update_profile', { bio: 'Twice the same.' });
    await twice('mark_read', { match_id: matchId, message_id: sent.body.id });

    const first = await callTool(mcp, 'unmatch', { match_id: matchId });
    expect(first.structuredContent).toEqual({ unmatched: true, match_id: matchId });
    const second: ToolResult = await callTool(mcp, 'unmatch', { match_id: matchId });
    expect(second).toMatchObject({ isError: true, structuredContent: { status: 410, error: { code: 'match_ended' } } });
    await twice('block_user', { user_id: bo.user_id });
  });
});
