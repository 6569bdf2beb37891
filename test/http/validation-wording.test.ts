import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { registerAgent, type Account } from '../support/accounts.js';
import { LIBRARY_WORDS, wrongQueryValues, wrongValues, type SchemaProperty } from '../support/library-words.js';
import { callTool, connectMcp, type McpConnection, type ToolResult } from '../support/mcp-client.js';
import { startStack } from '../support/stack.js';

// Every per-account limit out of the way: the walk sends hundreds of refused requests from one account.
const HIGH = 100_000;
let stack: Awaited<ReturnType<typeof startStack>>;
let a: Account;
let b: Account;
let matchId: number;
let webhookId: number;
let mcp: McpConnection;

beforeAll(async () => {
  stack = await startStack({
    DISCOVERY_RATE_LIMIT: HIGH,
    LIKE_RATE_LIMIT: HIGH,
    MESSAGE_RATE_LIMIT: HIGH,
    PROFILE_RATE_LIMIT: HIGH,
    WEBHOOK_TEST_RATE_LIMIT: HIGH,
    EVENTS_RATE_LIMIT: HIGH,
  });
  [a, b] = await Promise.all([registerAgent(stack.api), registerAgent(stack.api)]);
  await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  matchId = (await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id as number;
  const hook = await stack.api.post('/api/v1/webhooks', { token: a.token, body: { url: 'https://example.com/hook', event_types: ['like.received'] } });
  expect(hook.status).toBe(201);
  webhookId = Number(hook.body.id);
  mcp = await connectMcp({ AGENT_MATCH_URL: stack.baseUrl, AGENT_MATCH_TOKEN: a.token });
});
afterAll(async () => {
  await mcp?.close();
  await stack?.stop();
});

type Parameter = { name: string; in: 'path' | 'query'; required?: boolean; schema: SchemaProperty };
type Operation = {
  responses?: Record<string, unknown>;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: { $ref?: string } & ObjectSchema } } };
  security?: unknown[];
};
type ObjectSchema = { properties?: Record<string, SchemaProperty>; required?: string[] };

/** A real value for a path parameter, so that a request gets as far as its query and body. */
const pathValue = (name: string) => ({ user_id: b.user_id, match_id: matchId, id: webhookId })[name] ?? 1;

/** Every message of an answer: the error's and each detail's. */
function messagesOf(body: JsonResponse['body']): string[] {
  const error = body?.error ?? {};
  return [error.message ?? '', ...((error.details ?? []) as Array<{ message: string }>).map((d) => d.message)];
}

/** A refusal: a 4xx (never a 500) in the error envelope, in the service's words. */
function expectRefusal(res: { status: number; body: JsonResponse['body'] }, what: string) {
  expect(res.status, what).toBeGreaterThanOrEqual(400);
  expect(res.status, what).toBeLessThan(500);
  expect(res.body, what).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String), details: expect.any(Array) }) });
  for (const message of messagesOf(res.body)) expect(message, `${what}: ${message}`).not.toMatch(LIBRARY_WORDS);
}

/** A query value as a client could send it: a list is the parameter repeated, an object in bracket form. */
function queryOf(name: string, value: unknown): string {
  if (Array.isArray(value))
    return value.map((item) => `${name}=${encodeURIComponent(typeof item === 'object' ? JSON.stringify(item) : String(item))}`).join('&');
  if (value !== null && typeof value === 'object') return `${name}[nested]=1`;
  return `${name}=${encodeURIComponent(String(value))}`;
}

describe("every route refuses wrong input in the service's own words", () => {
  it('walks the OpenAPI document: wrong types, unknown values and missing fields of every body and query parameter', async () => {
    const doc = (await stack.api.get('/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, ObjectSchema> };
    };
    let checked = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const parameters = operation.parameters ?? [];
        const bodySchema = operation.requestBody?.content['application/json'].schema;
        // The HTML pages (/spectator/…) take any path and leave it to the page's script.
        if ((parameters.length === 0 && !bodySchema) || !template.startsWith('/api/')) continue;
        const token = operation.security ? a.token : undefined;
        const pathWith = (wrong?: { name: string; value: string }) =>
          template.replace(/\{(\w+)\}/g, (_, name: string) => (name === wrong?.name ? encodeURIComponent(wrong.value) : String(pathValue(name))));
        const path = pathWith();
        const request = (url: string, body?: unknown, raw?: string) =>
          stack.api.request(method.toUpperCase(), url, { token, body, ...(raw !== undefined ? { raw, headers: { 'content-type': 'application/json' } } : {}) });
        // A request needs what is required of it before a wrong value of another parameter shows.
        const requiredQuery = parameters.filter((p) => p.in === 'query' && p.required).map((p) => queryOf(p.name, p.schema.enum?.[0] ?? '1'));
        const withQuery = (extra: string[], base = path) => (extra.length > 0 ? `${base}?${extra.join('&')}` : base);

        for (const parameter of parameters) {
          const wrong = parameter.in === 'path' ? ['abc', '1.5', '-1', '0', '99999999999999999999', 'null'] : wrongQueryValues(parameter.schema);
          for (const value of wrong) {
            const what = `${method.toUpperCase()} ${template} ${parameter.in} ${parameter.name}=${JSON.stringify(value)}`;
            const url =
              parameter.in === 'path'
                ? withQuery(requiredQuery, pathWith({ name: parameter.name, value: value as string }))
                : withQuery([...requiredQuery.filter((q) => !q.startsWith(`${parameter.name}=`)), queryOf(parameter.name, value)]);
            const res = await request(url, bodySchema ? {} : undefined);
            expectRefusal(res, what);
            checked++;
          }
          if (parameter.required && parameter.in === 'query') {
            const res = await request(withQuery(requiredQuery.filter((q) => !q.startsWith(`${parameter.name}=`))));
            expectRefusal(res, `${method.toUpperCase()} ${template} without ${parameter.name}`);
            checked++;
          }
        }
        if (parameters.some((p) => p.in === 'query')) {
          const what = `${method.toUpperCase()} ${template} with an unknown parameter`;
          const res = await request(withQuery([...requiredQuery, 'not_a_parameter=1']));
          expectRefusal(res, what);
          // the refusal names the parameters the route takes, each of them (a WebSocket route answers a plain GET
          // with "not an upgrade" first)
          if (!operation.responses?.['101']) {
            const detail = (res.body.error.details as Array<{ field: string; message: string }>).find((d) => d.field === 'not_a_parameter');
            const taken = detail?.message.replace(/^is not a known parameter; this route takes /, '').split(', ');
            expect(taken, `${what}: ${JSON.stringify(res.body)}`).toEqual(parameters.filter((p) => p.in === 'query').map((p) => p.name));
          }
        }

        if (!bodySchema) continue;
        const schema = bodySchema.$ref ? doc.components.schemas[bodySchema.$ref.split('/').at(-1)!]! : bodySchema;
        for (const [field, property] of Object.entries(schema.properties ?? {})) {
          for (const value of wrongValues(property)) {
            const what = `${method.toUpperCase()} ${template} body ${field}=${JSON.stringify(value)}`;
            const res = await request(withQuery(requiredQuery), { [field]: value });
            expectRefusal(res, what);
            if (res.status === 400) {
              const fields = (res.body.error.details as Array<{ field: string }>).map((d) => d.field);
              expect(
                fields.some((f) => f === field || f.startsWith(`${field}.`)),
                `${what}: ${JSON.stringify(res.body)}`,
              ).toBe(true);
            }
            checked++;
          }
        }
        for (const raw of ['null', '[]', '"text"', '42', '{"nested": {"deep": [1, {}]}}']) {
          expectRefusal(await request(withQuery(requiredQuery), undefined, raw), `${method.toUpperCase()} ${template} body ${raw}`);
        }
        if ((schema.required ?? []).length > 0)
          expectRefusal(await request(withQuery(requiredQuery), {}), `${method.toUpperCase()} ${template} with an empty body`);
      }
    }
    expect(checked).toBeGreaterThan(300);
  }, 120_000);

  it('names what was sent and what is taken, in the cases clients meet', async () => {
    const theme = await stack.api.patch('/api/v1/me', { token: a.token, body: { theme_id: '4' } });
    expect(theme.body.error.details).toEqual([{ field: 'theme_id', message: 'must be an integer from 1 to 6, not a string' }]);
    const themeNull = await stack.api.patch('/api/v1/me', { token: a.token, body: { theme_id: null } });
    expect(themeNull.body.error.details).toEqual([{ field: 'theme_id', message: 'must be an integer from 1 to 6, not null' }]);

    const noKind = await stack.api.post(`/api/v1/likes/${b.user_id}`, { token: a.token, body: { kind: 'like' } });
    expect(noKind.body.error.details).toEqual([
      { field: 'kind', message: 'is required as a query parameter, one of like, pass, super_like: add ?kind=like to the URL (not the JSON body)' },
    ]);

    const events = await stack.api.post('/api/v1/webhooks', {
      token: a.token,
      body: { url: 'https://example.com/other', event_types: ['match.created', 'match.deleted'] },
    });
    expect(events.status).toBe(400);
    expect(events.body.error.details).toEqual([
      {
        field: 'event_types.1',
        message: expect.stringMatching(/^must be one of match\.created, message\.created, message\.read, match\.ended, like\.received/),
      },
    ]);
  });
});

/** Every message of a refused tool call: its text and each detail's. */
function toolMessages(result: ToolResult): string[] {
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return [text, ...messagesOf(result.structuredContent)];
}

describe("every MCP tool refuses wrong arguments in the service's own words", () => {
  it('walks every tool: wrong types, unknown values, unknown and missing arguments', async () => {
    const { tools } = await mcp.client.listTools();
    let checked = 0;
    const expectToolRefusal = (result: ToolResult, what: string) => {
      expect(result.isError, what).toBe(true);
      const status = result.structuredContent?.status as number;
      expect(status >= 400 && status < 500, `${what}: status ${status}`).toBe(true);
      expect(result.structuredContent.error, what).toEqual(
        expect.objectContaining({ code: expect.any(String), message: expect.any(String), details: expect.any(Array) }),
      );
      for (const message of toolMessages(result)) expect(message, `${what}: ${message}`).not.toMatch(LIBRARY_WORDS);
      checked++;
    };
    for (const tool of tools as Tool[]) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, SchemaProperty>;
      for (const [name, property] of Object.entries(properties)) {
        for (const value of wrongValues(property))
          expectToolRefusal(await callTool(mcp.client, tool.name, { [name]: value }), `${tool.name} ${name}=${JSON.stringify(value)}`);
      }
      expectToolRefusal(await callTool(mcp.client, tool.name, { not_an_argument: 1 }), `${tool.name} with an unknown argument`);
      if ((tool.inputSchema.required ?? []).length > 0) expectToolRefusal(await callTool(mcp.client, tool.name, {}), `${tool.name} with nothing`);
    }
    expect(checked).toBeGreaterThan(100);
  }, 120_000);
});
