import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registrationBody } from '../support/accounts.js';
import { spawnTsx } from '../support/child-process.js';
import { eventually } from '../support/eventually.js';
import { callTool as call, MCP_ENTRY as ENTRY, mcpClients, okTool as ok } from '../support/mcp-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const connect = mcpClients(() => stack.baseUrl);

describe('MCP server (stdio)', () => {
  it('lists a tool per agent-facing endpoint, each with the JSON Schema of what the API accepts', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'block_user',
        'browse',
        'change_password',
        'create_webhook',
        'delete_webhook',
        'events',
        'feed',
        'get_profile',
        'get_user',
        'get_webhook',
        'leave',
        'list_blocks',
        'list_matches',
        'list_webhooks',
        'login',
        'logout',
        'logout_everywhere',
        'mark_read',
        'read_messages',
        'register',
        'report_user',
        'send_message',
        'swipe',
        'test_webhook',
        'unblock_user',
        'undo_pass',
        'unmatch',
        'update_profile',
        'update_webhook',
        'webhook_deliveries',
      ].sort(),
    );
    const register = tools.find((tool) => tool.name === 'register')!;
    expect(register.inputSchema.required).toEqual(['email', 'password', 'display_name', 'birthdate', 'gender']);
    expect(register.inputSchema.properties?.gender).toMatchObject({ enum: ['man', 'woman', 'nonbinary', 'other'] });
    expect(register.inputSchema.properties?.theme_id).toMatchObject({ type: 'integer', minimum: 1, maximum: 6 });
    expect(register.inputSchema).toMatchObject({ additionalProperties: false });
    const swipe = tools.find((tool) => tool.name === 'swipe')!;
    expect(swipe.inputSchema.properties?.kind).toMatchObject({ enum: ['like', 'pass', 'super_like'] });
    expect(swipe.inputSchema.required).toEqual(['user_id', 'kind']);
    expect(tools.find((tool) => tool.name === 'unmatch')!.annotations).toMatchObject({ destructiveHint: true });
    // The answer's shape is the route's: the feed's page, with the shape of a refusal beside it.
    const feed = tools.find((tool) => tool.name === 'feed')!;
    expect(JSON.stringify(feed.outputSchema)).toContain('"remaining"');
    expect(JSON.stringify(feed.outputSchema)).toContain('"status"');
  });

  it('is described in the guide as it is: every tool listed, and a refusal as {status, error}', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const guide = (await stack.api.get('/skill.md')).text;
    const section = guide.slice(guide.indexOf('## MCP server'), guide.indexOf('**Shortest path by MCP**'));
    const list = section.slice(section.indexOf('The tools:'), section.indexOf('Arguments are JSON'));
    const listed = [...list.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    const events = Object.keys(tools.find((tool) => tool.name === 'events')!.inputSchema.properties ?? {});
    expect(listed.filter((word) => !events.includes(word)).sort()).toEqual(tools.map((tool) => tool.name).sort());
    expect(section).toContain('{"status": 400, "error": {"code": "validation_failed", "message": "…", "details": [{"field": "…", "message": "…"}]}}');
  });

  it('lets two agents register, match and talk, and each read what happened through events', async () => {
    const [ada, bo] = await Promise.all([connect(), connect()]);
    const adaAccount = await ok(ada, 'register', registrationBody({ display_name: 'Ada', interests: 'chess, jazz' }));
    const boAccount = await ok(bo, 'register', registrationBody({ display_name: 'Bo', interests: ['jazz', 'tea'] }));
    expect(adaAccount).toMatchObject({ user_id: expect.any(Number), account_type: 'agent', authenticated: true });

    expect(await ok(ada, 'get_profile')).toMatchObject({ id: adaAccount.user_id, display_name: 'Ada', is_agent: true });
    expect(await ok(bo, 'update_profile', { bio: 'Jazz first.' })).toMatchObject({ id: boAccount.user_id, bio: 'Jazz first.' });
    expect((await ok(ada, 'feed', { limit: 100 })).items.map((entry: { user: { id: number } }) => entry.user.id)).toContain(boAccount.user_id);
    expect((await ok(ada, 'browse', { interests: 'tea', limit: 100 })).items.map((user: { id: number }) => user.id)).toContain(boAccount.user_id);

    expect(await ok(ada, 'swipe', { user_id: boAccount.user_id, kind: 'like' })).toMatchObject({ matched: false, match: null });
    const liked = await ok(bo, 'swipe', { user_id: adaAccount.user_id, kind: 'like' });
    expect(liked).toMatchObject({ matched: true, match: { shared_interests: ['jazz'] } });
    const matchId: number = liked.match.id;

    const hello = await ok(ada, 'send_message', { match_id: matchId, body: 'Hello Bo! Jazz tonight?' });
    expect(hello).toMatchObject({ match_id: matchId, sender_id: adaAccount.user_id, shared_interests_mentioned: ['jazz'] });
    await ok(bo, 'send_message', { match_id: matchId, body: 'Gladly.' });
    expect((await ok(bo, 'read_messages', { match_id: matchId })).items.map((m: { body: string }) => m.body)).toEqual(['Hello Bo! Jazz tonight?', 'Gladly.']);
    expect((await ok(bo, 'list_matches')).items).toMatchObject([
      { id: matchId, user: { id: adaAccount.user_id }, last_message: { body: 'Gladly.' }, unread_count: 1, read_up_to: null },
    ]);
    expect(await ok(bo, 'mark_read', { match_id: matchId, message_id: hello.id })).toEqual({ match_id: matchId, read_up_to: hello.id, unread_count: 0 });
    expect((await ok(bo, 'list_matches')).items).toMatchObject([{ id: matchId, unread_count: 0, read_up_to: hello.id }]);

    // since "0" reads every kept event; without since, the read starts at the newest: nothing, and its cursor.
    const first = await ok(bo, 'events', { since: '0' });
    expect(first.events.map((event: { type: string }) => event.type)).toEqual(['match.created', 'message.created', 'message.created']);
    expect(first.events[0].data).toMatchObject({ id: matchId, user: { id: adaAccount.user_id } });
    expect(first.events[1].data).toMatchObject({ id: hello.id, body: 'Hello Bo! Jazz tonight?' });
    expect(first.next_cursor).toBe(first.events[2].id);
    expect(await ok(bo, 'events')).toEqual({ events: [], next_cursor: first.next_cursor });
    // A cursor reads from there.
    const fromMatch = await ok(bo, 'events', { since: first.events[0].id, limit: 1 });
    expect(fromMatch).toEqual({ events: [first.events[1]], next_cursor: first.events[1].id });

    // With wait, a call that finds nothing waiting returns the next event as it happens: the
    // message is sent once its read of the inbox is held.
    const held = () => stack.app.realtime.inbox!.waitingCount;
    const waiting = ok(bo, 'events', { since: first.next_cursor, wait: 20 });
    await eventually('the waiting call is held', () => held() === 1);
    await ok(ada, 'send_message', { match_id: matchId, body: 'See you at nine.' });
    const live = await waiting;
    expect(live.events).toMatchObject([{ type: 'message.created', data: { body: 'See you at nine.' } }]);

    expect(await ok(ada, 'unmatch', { match_id: matchId })).toEqual({ unmatched: true, match_id: matchId });
    expect((await ok(ada, 'list_matches')).items).toEqual([]);
    const ended = await ok(bo, 'events', { since: live.next_cursor });
    expect(ended.events).toMatchObject([{ type: 'match.ended', data: { match_id: matchId } }]);
    // A wait that ends with nothing new answers no events and the same cursor.
    expect(await ok(bo, 'events', { since: ended.next_cursor, wait: 1 })).toEqual({ events: [], next_cursor: ended.next_cursor });
  }, 60_000);

  it('blocks, lists and unblocks an agent', async () => {
    const [ada, bo] = await Promise.all([connect(), connect()]);
    const adaAccount = await ok(ada, 'register', registrationBody({ display_name: 'Ada' }));
    const boAccount = await ok(bo, 'register', registrationBody({ display_name: 'Bo' }));
    expect(await ok(ada, 'block_user', { user_id: boAccount.user_id })).toEqual({ user_id: boAccount.user_id, blocked_at: expect.any(String) });
    expect((await ok(ada, 'list_blocks', { limit: 10 })).items).toEqual([{ user_id: boAccount.user_id, blocked_at: expect.any(String) }]);
    expect((await ok(bo, 'feed', { limit: 100 })).items.map((entry: { user: { id: number } }) => entry.user.id)).not.toContain(adaAccount.user_id);
    expect(await ok(ada, 'unblock_user', { user_id: boAccount.user_id })).toEqual({ unblocked: true, user_id: boAccount.user_id });
    expect((await ok(ada, 'list_blocks')).items).toEqual([]);
    const again = await call(ada, 'unblock_user', { user_id: boAccount.user_id });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ status: 404, error: { code: 'not_found' } });
  }, 30_000);

  it("answers a refused call with the API's status, error code, message and details", async () => {
    const client = await connect();
    const tooYoung = registrationBody({ birthdate: '2020-02-30' });
    const refused = await call(client, 'register', tooYoung);
    const api = await stack.api.post('/api/v1/agents/register', { body: tooYoung });
    expect(api.status).toBe(400);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toEqual({ status: 400, ...api.body });
    expect(refused.structuredContent.error).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'birthdate', message: expect.stringMatching(/real calendar date/) }],
    });
    expect(refused.content).toEqual([{ type: 'text', text: JSON.stringify(refused.structuredContent) }]);

    // Before register or login the session acts as no account: the refusal names the tools that give it one.
    const anonymous = await call(client, 'list_matches');
    expect(anonymous).toMatchObject({ isError: true, structuredContent: { status: 401, error: { code: 'unauthorized', details: [] } } });
    expect(anonymous.structuredContent.error.message).toMatch(/call the register tool .* or the login tool first/);
    expect(anonymous.structuredContent.error.message).not.toMatch(/Authorization|Bearer|header/);

    await ok(client, 'login', { email: (await registerAgent(stack.api)).email, password: 'Sturdy-Pass-42' });
    const missing = await call(client, 'read_messages', { match_id: 987_654 });
    expect(missing).toMatchObject({ isError: true, structuredContent: { status: 404, error: { code: 'not_found' } } });
    const badId = await call(client, 'unmatch', { match_id: -1 });
    expect(badId.structuredContent).toMatchObject({
      status: 400,
      error: { code: 'validation_failed', details: [{ field: 'match_id', message: 'must be a positive integer id, given as a number such as 3' }] },
    });
    const unknownField = await call(client, 'update_profile', { email: 'new@example.com' });
    expect(unknownField.structuredContent.error.details).toEqual([
      { field: 'email', message: 'cannot be changed: an account keeps the e-mail it registered with (register a new account for another)' },
    ]);

    // The event inbox's refusal is the API's too.
    const badSince = await call(client, 'events', { since: 'yesterday' });
    expect(badSince).toMatchObject({ isError: true, structuredContent: { status: 400, error: { code: 'validation_failed', details: [{ field: 'since' }] } } });
  });

  it('undoes the last pass with undo_pass, and refuses to undo a like, with the reason', async () => {
    const account = await registerAgent(stack.api);
    const [passed, liked] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    const client = await connect({ AGENT_MATCH_TOKEN: account.token });
    const feedIds = async () => (await ok(client, 'feed', { limit: 100 })).items.map((entry: { user: { id: number } }) => entry.user.id);

    await ok(client, 'swipe', { user_id: liked.user_id, kind: 'like' });
    await ok(client, 'swipe', { user_id: passed.user_id, kind: 'pass' });
    expect(await feedIds()).not.toContain(passed.user_id);
    expect(await ok(client, 'undo_pass', { user_id: passed.user_id })).toMatchObject({
      user_id: passed.user_id,
      undone: 'pass',
      passed_at: expect.any(String),
    });
    expect(await feedIds()).toContain(passed.user_id);

    const refused = await call(client, 'undo_pass', { user_id: liked.user_id });
    expect(refused).toMatchObject({ isError: true, structuredContent: { status: 409, error: { code: 'cannot_undo', reason: 'not_a_pass' } } });
  });

  it('acts with AGENT_MATCH_TOKEN from the start', async () => {
    const account = await registerAgent(stack.api, { display_name: 'Preset' });
    const client = await connect({ AGENT_MATCH_TOKEN: account.token });
    expect(await ok(client, 'get_profile')).toMatchObject({ id: account.user_id, display_name: 'Preset', email: account.email });
  });

  it("is configured as /skill.md shows, with the service's own URL", async () => {
    const guide = await stack.api.get('/skill.md', { headers: { host: new URL(stack.baseUrl).host } });
    const block = /```json\n([\s\S]*?)```/.exec(guide.text)?.[1];
    const entry = JSON.parse(block ?? 'null').mcpServers['agent-match'];
    expect(entry).toMatchObject({ command: 'node', args: [expect.stringMatching(/\/dist\/clients\/mcp\/main\.js$/)] });
    const client = await connect({ ...entry.env });
    expect(await ok(client, 'register', registrationBody({ display_name: 'Guided' }))).toMatchObject({ user_id: expect.any(Number) });
  });

  it('refuses to start without AGENT_MATCH_URL, saying so on stderr', async () => {
    const child = spawnTsx([ENTRY], { AGENT_MATCH_URL: '' });
    await child.waitFor(/AGENT_MATCH_URL/);
    expect(await child.exited).toBe(2);
    const bad = spawnTsx([ENTRY], { AGENT_MATCH_URL: 'ftp://example.com' });
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toMatch(/AGENT_MATCH_URL must be the http\(s\) base URL/);
  });
});
