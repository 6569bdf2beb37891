import { createServer } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, registerAgent, registerMember, registrationBody } from '../support/accounts.js';
import { spawnTsx } from '../support/child-process.js';
import { eventually } from '../support/eventually.js';
import { callTool, MCP_ENTRY, mcpServers, okTool as ok, type ToolResult } from '../support/mcp-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const connect = mcpServers(() => stack.baseUrl);

const textOf = (result: ToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** A bearer token as the service issues them (a JWT), anywhere in a text. */
const A_TOKEN = /eyJ[\w-]+\.[\w-]+\.[\w-]+|"(access_)?token"\s*:/;

describe('the token stays with the MCP server', () => {
  it('register and login answer the account the session now acts as, never its token', async () => {
    const { client } = await connect({ AGENT_MATCH_URL: stack.baseUrl });
    const registered = await callTool(client, 'register', registrationBody({ display_name: 'Keeper' }));
    expect(registered.isError).toBeFalsy();
    expect(textOf(registered)).not.toMatch(A_TOKEN);
    expect(Object.keys(registered.structuredContent).sort()).toEqual(['account_type', 'authenticated', 'expires_at', 'note', 'user_id']);
    expect(registered.structuredContent).toMatchObject({
      account_type: 'agent',
      authenticated: true,
      expires_at: expect.any(String),
      note: expect.stringMatching(/authenticated/),
    });
    expect(await ok(client, 'get_profile')).toMatchObject({ id: registered.structuredContent.user_id, display_name: 'Keeper' });

    const agent = await registerAgent(stack.api);
    const loggedIn = await callTool(client, 'login', { email: agent.email, password: PASSWORD });
    expect(textOf(loggedIn)).not.toMatch(A_TOKEN);
    expect(loggedIn.structuredContent).toEqual({
      user_id: agent.user_id,
      account_type: 'agent',
      expires_at: expect.any(String),
      authenticated: true,
      note: expect.stringMatching(/never/),
    });
    expect(await ok(client, 'get_profile')).toMatchObject({ id: agent.user_id });

    const member = await registerMember(stack.api);
    expect((await ok(client, 'login', { email: member.email, password: PASSWORD })).account_type).toBe('member');
  });

  it('no tool answer holds the token the session acts with', async () => {
    const [ada, bo] = await Promise.all([registerAgent(stack.api, { interests: 'tea' }), registerAgent(stack.api, { interests: 'tea' })]);
    const { client } = await connect({ AGENT_MATCH_URL: stack.baseUrl, AGENT_MATCH_TOKEN: ada.token });
    const other = (await connect({ AGENT_MATCH_URL: stack.baseUrl, AGENT_MATCH_TOKEN: bo.token })).client;
    await ok(other, 'swipe', { user_id: ada.user_id, kind: 'like' });
    const matched = await ok(client, 'swipe', { user_id: bo.user_id, kind: 'like' });
    const calls: [Client, string, Record<string, unknown>][] = [
      [client, 'get_profile', {}],
      [client, 'update_profile', { bio: 'Tea first.' }],
      [client, 'get_user', { user_id: bo.user_id }],
      [client, 'feed', {}],
      [client, 'browse', { interests: ['tea'] }],
      [client, 'list_matches', {}],
      [client, 'send_message', { match_id: matched.match.id, body: 'Hello!' }],
      [client, 'read_messages', { match_id: matched.match.id }],
      [client, 'events', {}],
    ];
    for (const [caller, name, args] of calls) {
      const result = await callTool(caller, name, args);
      expect(result.isError, name).toBeFalsy();
      expect(textOf(result), name).not.toContain(ada.token);
      expect(textOf(result), name).not.toMatch(A_TOKEN);
    }
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const SECRETS = /mcp-user|s3cret-pass|qs-secret-token/;

describe('credentials in AGENT_MATCH_URL', () => {
  it('are never repeated in an error or in the log, the URL shown redacted', async () => {
    const port = await closedPort();
    const url = `http://mcp-user:s3cret-pass@127.0.0.1:${port}/?token=qs-secret-token`;
    // A token to start with, so that the tools that need an account call the service too.
    const mcp = await connect({ AGENT_MATCH_URL: url, AGENT_MATCH_TOKEN: 'a-token-never-checked', LOG_LEVEL: 'debug' });
    await eventually('the server logged that it is ready', () => /MCP server ready/.test(mcp.stderr()));
    const calls: [string, Record<string, unknown>][] = [
      ['get_profile', {}],
      ['register', registrationBody()],
      ['login', { email: 'someone@example.com', password: PASSWORD }],
      ['browse', { gender: ['woman'] }],
      ['events', {}],
    ];
    for (const [name, args] of calls) {
      const result = await callTool(mcp.client, name, args);
      expect(result.structuredContent, name).toMatchObject({ status: 0, error: { code: 'unavailable' } });
      expect(result.structuredContent.error.message, name).toContain(`http://***@127.0.0.1:${port}/?***`);
      expect(textOf(result), name).not.toMatch(SECRETS);
    }
    await mcp.close();
    expect(mcp.stderr()).toContain(`http://***@127.0.0.1:${port}/?***`);
    expect(mcp.stderr()).not.toMatch(SECRETS);
  });

  it('are not repeated when the URL is refused at start', async () => {
    const refused = spawnTsx([MCP_ENTRY], { AGENT_MATCH_URL: 'ftp://mcp-user:s3cret-pass@127.0.0.1/?token=qs-secret-token', LOG_LEVEL: 'debug' });
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(/AGENT_MATCH_URL must be the http\(s\) base URL/);
    expect(refused.output()).not.toMatch(SECRETS);
  });
});
