import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { mcpServers, okTool as ok } from '../support/mcp-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const startServer = mcpServers(() => stack.baseUrl);
/** An MCP client with the server as a child process on stdio, started through its real entry point. */
const connect = async (env: Record<string, string> = {}): Promise<Client> => (await startServer(env)).client;

/** The REST route each tool calls (`events` reads the event stream, not one route). */
const ROUTES: Record<string, [method: string, path: string]> = {
  register: ['post', '/api/v1/agents/register'],
  login: ['post', '/api/v1/auth/login'],
  get_profile: ['get', '/api/v1/me'],
  update_profile: ['patch', '/api/v1/me'],
  get_user: ['get', '/api/v1/users/{user_id}'],
  feed: ['get', '/api/v1/discovery/feed'],
  browse: ['get', '/api/v1/discovery/browse'],
  swipe: ['post', '/api/v1/likes/{user_id}'],
  undo_pass: ['delete', '/api/v1/likes/{user_id}'],
  list_matches: ['get', '/api/v1/matches'],
  read_messages: ['get', '/api/v1/matches/{match_id}/messages'],
  send_message: ['post', '/api/v1/matches/{match_id}/messages'],
  mark_read: ['post', '/api/v1/matches/{match_id}/read'],
  unmatch: ['delete', '/api/v1/matches/{match_id}'],
  block_user: ['post', '/api/v1/blocks/{user_id}'],
  unblock_user: ['delete', '/api/v1/blocks/{user_id}'],
  list_blocks: ['get', '/api/v1/blocks'],
};
const NOT_ONE_ROUTE = ['events'];

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; required: boolean; schema: Schema };
type Operation = { parameters?: Parameter[]; requestBody?: { content: { 'application/json': { schema: Schema } } } };

/** What the comparison is about: names, types, required-ness, enums and bounds (words and defaults aside). */
function rules(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rules);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (['description', 'default', 'title', '$schema', 'examples'].includes(key)) continue;
    out[key] = key === 'required' ? [...(value as string[])].sort() : rules(value);
  }
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  return out;
}

/** A route's path and query parameters and body fields as one object schema: what a tool calling it takes. */
function routeInput(doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } }, method: string, path: string): Schema {
  const operation = doc.paths[path]?.[method];
  expect(operation, `${method} ${path}`).toBeDefined();
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const parameter of operation!.parameters ?? []) {
    properties[parameter.name] = parameter.schema;
    if (parameter.required) required.push(parameter.name);
  }
  let body = operation!.requestBody?.content['application/json'].schema;
  if (typeof body?.$ref === 'string') body = doc.components.schemas[body.$ref.replace('#/components/schemas/', '')];
  for (const [name, schema] of Object.entries((body?.properties ?? {}) as Record<string, Schema>)) properties[name] = schema;
  required.push(...((body?.required ?? []) as string[]));
  return { type: 'object', properties, required, additionalProperties: false };
}

describe('MCP tool input schemas', () => {
  it("are the REST route's own: each tool takes the parameters and body fields of the route it calls, alike in name, type, required-ness, enum and bound", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const doc = (await stack.api.get('/api/v1/openapi.json')).body;
    expect(tools.map((tool) => tool.name).filter((name) => !ROUTES[name]).sort()).toEqual(NOT_ONE_ROUTE);
    for (const tool of tools.filter((t) => ROUTES[t.name])) {
      const [method, path] = ROUTES[tool.name]!;
      expect(rules(tool.inputSchema), `${tool.name} ↔ ${method.toUpperCase()} ${path}`).toEqual(rules(routeInput(doc, method, path)));
    }
  });

  it('give numbers as numbers and lists where the route takes a parameter repeated', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const input = (name: string) => (tools.find((tool) => tool.name === name) as Tool).inputSchema.properties as Record<string, Schema>;
    for (const age of ['min_age', 'max_age', 'age']) expect(input('browse')[age]).toMatchObject({ type: 'integer', minimum: 18, maximum: 150 });
    expect(input('browse').gender).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(input('browse').interests).toMatchObject({ type: 'array', items: { type: 'string' } });
    for (const name of ['feed', 'browse', 'list_matches', 'read_messages', 'list_blocks']) expect(input(name).limit, name).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    for (const [name, id] of [['get_user', 'user_id'], ['swipe', 'user_id'], ['undo_pass', 'user_id'], ['read_messages', 'match_id'], ['send_message', 'match_id'], ['unmatch', 'match_id'], ['block_user', 'user_id'], ['unblock_user', 'user_id']] as const) {
      expect(input(name)[id], name).toMatchObject({ type: 'integer', minimum: 1 });
    }
  });

  it('browse takes a list of genders and numeric ages, and their text forms too, as the route does', async () => {
    const viewer = await registerAgent(stack.api);
    const birthdate = (years: number) => `${new Date().getUTCFullYear() - years}-01-01`;
    const woman = await registerAgent(stack.api, { gender: 'woman', birthdate: birthdate(35), city: 'Tallinn-MCP' });
    const man = await registerAgent(stack.api, { gender: 'man', birthdate: birthdate(36), city: 'Tallinn-MCP' });
    const other = await registerAgent(stack.api, { gender: 'other', birthdate: birthdate(35), city: 'Tallinn-MCP' });
    const young = await registerAgent(stack.api, { gender: 'woman', birthdate: birthdate(20), city: 'Tallinn-MCP' });
    const client = await connect({ AGENT_MATCH_TOKEN: viewer.token });
    const ids = async (args: Record<string, unknown>) => (await ok(client, 'browse', { city: 'Tallinn-MCP', ...args })).items.map((user: { id: number }) => user.id).sort();

    expect(await ids({ gender: ['woman', 'man'], min_age: 30, max_age: 40, limit: 100 })).toEqual([woman.user_id, man.user_id].sort());
    expect(await ids({ gender: 'woman,man', min_age: '30', max_age: '40', limit: '100' })).toEqual([woman.user_id, man.user_id].sort());
    expect(await ids({ gender: ['other'], age: 35 })).toEqual([other.user_id]);
    expect(await ids({ gender: ['woman'], limit: 100 })).toEqual([woman.user_id, young.user_id].sort());
    expect(await ids({ interests: ['chess', 'jazz'], interests_mode: 'all', max_age: 25 })).toEqual([young.user_id]);
  });
});
