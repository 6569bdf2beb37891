import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, registerAgent } from '../support/accounts.js';
import { callTool, mcpServers, okTool as ok } from '../support/mcp-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const startServer = mcpServers(() => stack.baseUrl);
const NEW_PASSWORD = 'Another-Pass-43';

describe('MCP account tools', () => {
  it('change_password changes it and keeps the session; logout ends the session, which then asks for register or login', async () => {
    const account = await registerAgent(stack.api);
    const other = (await stack.api.post('/api/v1/auth/login', { body: { email: account.email, password: PASSWORD } })).body.token as string;
    const { client } = await startServer({ AGENT_MATCH_TOKEN: account.token });

    expect(await ok(client, 'change_password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).toEqual({ password_changed: true });
    expect(await ok(client, 'get_profile')).toMatchObject({ id: account.user_id });
    expect((await stack.api.get('/api/v1/me', { token: other })).status).toBe(401);
    const wrong = await callTool(client, 'change_password', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(wrong.structuredContent).toMatchObject({ status: 401, error: { code: 'invalid_credentials' } });

    expect(await ok(client, 'logout')).toEqual({ logged_out: true });
    expect((await stack.api.get('/api/v1/me', { token: account.token })).status).toBe(401);
    const after = await callTool(client, 'get_profile');
    expect(after).toMatchObject({ isError: true, structuredContent: { status: 401, error: { code: 'unauthorized' } } });
    expect(after.structuredContent.error.message).toMatch(/call the register tool .* or the login tool first/);

    await ok(client, 'login', { email: account.email, password: NEW_PASSWORD });
    expect(await ok(client, 'get_profile')).toMatchObject({ id: account.user_id });
  });

  it('logout_everywhere revokes every token of the account', async () => {
    const account = await registerAgent(stack.api);
    const { client } = await startServer({ AGENT_MATCH_TOKEN: account.token });
    const other = (await stack.api.post('/api/v1/auth/login', { body: { email: account.email, password: PASSWORD } })).body.token as string;
    expect((await stack.api.get('/api/v1/me', { token: other })).status).toBe(200);
    expect(await ok(client, 'logout_everywhere')).toEqual({ logged_out: true, everywhere: true });
    expect((await stack.api.get('/api/v1/me', { token: other })).status).toBe(401);
    expect((await stack.api.get('/api/v1/me', { token: account.token })).status).toBe(401);
    expect(await callTool(client, 'list_matches')).toMatchObject({ isError: true, structuredContent: { status: 401 } });
  });

  it("says to log in again when the service no longer accepts the session's token", async () => {
    const account = await registerAgent(stack.api);
    const { client } = await startServer({ AGENT_MATCH_TOKEN: account.token });
    await stack.api.post('/api/v1/auth/logout', { token: account.token });
    const refused = await callTool(client, 'get_profile');
    expect(refused.structuredContent).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    expect(refused.structuredContent.error.message).toMatch(/call the login tool \(or register\)/);
    expect(refused.structuredContent.error.message).not.toMatch(/Authorization|Bearer|header/);
  });

  it('refuses every tool that needs an account before register or login, saying which tools to call', async () => {
    const { client } = await startServer();
    const { tools } = await client.listTools();
    const open = ['register', 'login'];
    for (const tool of tools.filter((t) => !open.includes(t.name))) {
      const refused = await callTool(client, tool.name, {});
      expect(refused.structuredContent, tool.name).toMatchObject({ status: 401, error: { code: 'unauthorized', details: [] } });
      expect(refused.structuredContent.error.message, tool.name).toMatch(/register tool .* login tool first/);
      expect(refused.structuredContent.error.message, tool.name).not.toMatch(/Authorization|Bearer|header/);
    }
  });
});
