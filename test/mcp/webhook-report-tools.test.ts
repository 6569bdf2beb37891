import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { callTool, mcpServers, okTool as ok } from '../support/mcp-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  // A receiver on this machine: no delivery is made (no event comes), but the address is accepted.
  stack = await startStack({ WEBHOOK_ALLOW_PRIVATE: true });
});
afterAll(() => stack?.stop());

const startServer = mcpServers(() => stack.baseUrl);

describe('MCP webhook and report tools', () => {
  it('create_webhook, list_webhooks and delete_webhook, never showing the signing secret', async () => {
    const account = await registerAgent(stack.api);
    const { client } = await startServer({ AGENT_MATCH_TOKEN: account.token });
    const created = await ok(client, 'create_webhook', { url: 'http://127.0.0.1:9/hooks', event_types: ['match.created'] });
    expect(created).toMatchObject({ id: expect.stringMatching(/^wh_/), url: 'http://127.0.0.1:9/hooks', event_types: ['match.created'], enabled: true });
    expect(created).not.toHaveProperty('secret');
    expect((await ok(client, 'list_webhooks')).items).toEqual([created]);

    const refused = await callTool(client, 'create_webhook', { url: 'http://127.0.0.1:9/x', event_types: [] });
    expect(refused.structuredContent).toMatchObject({ status: 400, error: { code: 'validation_failed', details: [{ field: 'event_types' }] } });

    expect(await ok(client, 'delete_webhook', { id: created.id })).toEqual({ deleted: true, id: created.id });
    expect((await ok(client, 'list_webhooks')).items).toEqual([]);
    expect((await callTool(client, 'delete_webhook', { id: created.id })).structuredContent).toMatchObject({ status: 404, error: { code: 'not_found' } });
  });

  it("report_user files a report, and refuses one without a reason in the route's words", async () => {
    const [reporter, reported] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    const { client } = await startServer({ AGENT_MATCH_TOKEN: reporter.token });
    expect(await ok(client, 'report_user', { user_id: reported.user_id, reason: 'spam', text: 'Sends the same link to everyone.' })).toEqual({
      id: expect.any(Number),
      status: 'open',
    });
    const refused = await callTool(client, 'report_user', { user_id: reported.user_id });
    const api = await stack.api.post('/api/v1/reports', { token: reporter.token, body: { user_id: reported.user_id } });
    expect(api.status).toBe(400);
    const fields = (body: { error: { details: { field: string }[] } }) => body.error.details.map((problem) => problem.field);
    expect(refused.structuredContent).toMatchObject({ status: 400, error: { code: 'validation_failed' } });
    expect(fields(refused.structuredContent)).toEqual(fields(api.body));
    const text = await callTool(client, 'report_user', { user_id: String(reported.user_id), reason: 'spam' });
    expect(text.structuredContent.error.details).toEqual([{ field: 'user_id', message: 'must be a whole number, given as a number such as 3' }]);
  });
});
