import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { LIBRARY_WORDS } from '../support/library-words.js';
import { callTool, connectMcp, type McpConnection, type ToolResult } from '../support/mcp-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
let mcp: McpConnection;

beforeAll(async () => {
  stack = await startStack();
  // With an account: a tool that needs one is refused for that before its arguments are read.
  mcp = await connectMcp({ AGENT_MATCH_URL: stack.baseUrl, AGENT_MATCH_TOKEN: (await registerAgent(stack.api)).token });
});
afterAll(async () => {
  await mcp?.close();
  await stack?.stop();
});

type Property = { type?: string | string[]; enum?: unknown[]; anyOf?: Property[] };

/** Values of the wrong kind for a property of this declared type. */
function wrongValues(property: Property): unknown[] {
  const values: unknown[] = [null, { nested: 1 }, [{ nested: 1 }]];
  // A boolean (a webhook's enabled) is wrong as its text or a number; any other kind is wrong as a boolean.
  values.push(...(property.type === 'boolean' ? ['true', 1] : [true]));
  // One of several forms (text or a list of text): what is none of them.
  if (property.anyOf) return [...values, 42, [42]];
  const types = [property.type];
  if (types.includes('integer') || types.includes('number')) values.push('abc', 1.5, [1, 2], -1);
  if (types.includes('string')) values.push(42, ['a', 'b']);
  if (types.includes('array')) values.push(42, [42]);
  if (property.enum) values.push('not-one-of-them', String(property.enum[0]).toUpperCase());
  return values;
}

/** Every message of a refused call: its text and each detail's. */
function messagesOf(result: ToolResult): string[] {
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const error = result.structuredContent?.error ?? {};
  return [text, error.message ?? '', ...(error.details ?? []).map((d: { message: string }) => d.message)];
}

function expectOurWords(result: ToolResult, what: string) {
  expect(result.isError, what).toBe(true);
  for (const message of messagesOf(result)) expect(message, what).not.toMatch(LIBRARY_WORDS);
}

describe('MCP tool refusals', () => {
  it("answer every wrong type, unknown value and missing argument of every tool in the service's words, and the server keeps answering", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    let checked = 0;
    for (const tool of tools as Tool[]) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Property>;
      for (const [name, property] of Object.entries(properties)) {
        for (const value of wrongValues(property)) {
          const what = `${tool.name} ${name}=${JSON.stringify(value)}`;
          const result = await callTool(mcp.client, tool.name, { [name]: value });
          expectOurWords(result, what);
          if (result.structuredContent?.status === 400) {
            const fields = (result.structuredContent.error.details ?? []).map((d: { field: string }) => d.field);
            expect(
              fields.some((field: string) => field === name || field.startsWith(`${name}.`)),
              what,
            ).toBe(true);
          }
          checked++;
        }
      }
      expectOurWords(await callTool(mcp.client, tool.name, { not_an_argument: 1 }), `${tool.name} with an unknown argument`);
      if ((tool.inputSchema.required ?? []).length > 0) expectOurWords(await callTool(mcp.client, tool.name, {}), `${tool.name} with nothing`);
    }
    expect(checked).toBeGreaterThan(100);
    // still serving
    expect((await mcp.client.listTools()).tools.length).toBe(tools.length);
  }, 120_000);

  it('names what a missing argument takes, such as the kinds of a swipe', async () => {
    const missing = await callTool(mcp.client, 'swipe', { user_id: 1 });
    expect(missing.structuredContent).toMatchObject({
      status: 400,
      error: {
        code: 'validation_failed',
        message: 'Invalid request: kind is required: one of like, pass, super_like.',
        details: [{ field: 'kind', message: 'is required: one of like, pass, super_like' }],
      },
    });
    const register = await callTool(mcp.client, 'register', {});
    const details = register.structuredContent.error.details as { field: string; message: string }[];
    expect(details).toContainEqual({ field: 'gender', message: 'is required: one of man, woman, nonbinary, other' });
    expect(details).toContainEqual({ field: 'email', message: 'is required' });
    const browse = await callTool(mcp.client, 'browse', { gender: { man: true } });
    expect(browse.structuredContent.error.details).toEqual([
      { field: 'gender', message: 'must be one or more of man, woman, nonbinary, other: a list, or one comma-separated string, not an object' },
    ]);
    const unknown = await callTool(mcp.client, 'get_profile', { verbose: true });
    expect(unknown.structuredContent.error.details).toEqual([{ field: 'verbose', message: 'is not a known argument; this tool takes none' }]);
  });
});
