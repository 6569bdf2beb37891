import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { callTool, mcpClients, okTool as ok } from '../support/mcp-client.js';
import { TOOL_FIXED, TOOL_ROUTES as ROUTES } from '../support/mcp-tool-routes.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const connect = mcpClients(() => stack.baseUrl);

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
function routeInput(
  doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } },
  method: string,
  path: string,
  fixed: string[] = [],
): Schema {
  const operation = doc.paths[path]?.[method];
  expect(operation, `${method} ${path}`).toBeDefined();
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const parameter of (operation!.parameters ?? []).filter((p) => !fixed.includes(p.name))) {
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
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const tool of tools) {
      const [method, path] = ROUTES[tool.name]!;
      expect(rules(tool.inputSchema), `${tool.name} ↔ ${method.toUpperCase()} ${path}`).toEqual(rules(routeInput(doc, method, path, TOOL_FIXED[tool.name])));
    }
  });

  it('give numbers as numbers and lists where the route takes a parameter repeated', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const input = (name: string) => (tools.find((tool) => tool.name === name) as Tool).inputSchema.properties as Record<string, Schema>;
    for (const age of ['min_age', 'max_age', 'age']) expect(input('browse')[age]).toMatchObject({ type: 'integer', minimum: 18, maximum: 150 });
    expect(input('browse').gender).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(input('browse').interests).toMatchObject({ type: 'array', items: { type: 'string' } });
    for (const name of ['feed', 'browse', 'list_matches', 'read_messages', 'list_blocks'])
      expect(input(name).limit, name).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    for (const [name, id] of [
      ['get_user', 'user_id'],
      ['swipe', 'user_id'],
      ['undo_pass', 'user_id'],
      ['read_messages', 'match_id'],
      ['send_message', 'match_id'],
      ['unmatch', 'match_id'],
      ['block_user', 'user_id'],
      ['unblock_user', 'user_id'],
    ] as const) {
      expect(input(name)[id], name).toMatchObject({ type: 'integer', minimum: 1 });
    }
  });

  it('browse takes a list of genders or a comma-separated string, as the route does, and an age only as a number', async () => {
    const viewer = await registerAgent(stack.api);
    const birthdate = (years: number) => `${new Date().getUTCFullYear() - years}-01-01`;
    const woman = await registerAgent(stack.api, { gender: 'woman', birthdate: birthdate(35), city: 'Tallinn-MCP' });
    const man = await registerAgent(stack.api, { gender: 'man', birthdate: birthdate(36), city: 'Tallinn-MCP' });
    const other = await registerAgent(stack.api, { gender: 'other', birthdate: birthdate(35), city: 'Tallinn-MCP' });
    const young = await registerAgent(stack.api, { gender: 'woman', birthdate: birthdate(20), city: 'Tallinn-MCP' });
    const client = await connect({ AGENT_MATCH_TOKEN: viewer.token });
    const ids = async (args: Record<string, unknown>) =>
      (await ok(client, 'browse', { city: 'Tallinn-MCP', ...args })).items.map((user: { id: number }) => user.id).sort();

    expect(await ids({ gender: ['woman', 'man'], min_age: 30, max_age: 40, limit: 100 })).toEqual([woman.user_id, man.user_id].sort());
    expect(await ids({ gender: 'woman,man', min_age: 30, max_age: 40, limit: 100 })).toEqual([woman.user_id, man.user_id].sort());
    const text = await callTool(client, 'browse', { min_age: '30', limit: '100' });
    expect(text.structuredContent).toMatchObject({ status: 400, error: { code: 'validation_failed' } });
    expect(text.structuredContent.error.details).toEqual([
      { field: 'min_age', message: 'must be a whole number, given as a number such as 3' },
      { field: 'limit', message: 'must be a whole number, given as a number such as 3' },
    ]);
    expect(await ids({ gender: ['other'], age: 35 })).toEqual([other.user_id]);
    expect(await ids({ gender: ['woman'], limit: 100 })).toEqual([woman.user_id, young.user_id].sort());
    expect(await ids({ interests: ['chess', 'jazz'], interests_mode: 'all', max_age: 25 })).toEqual([young.user_id]);
  });
});
