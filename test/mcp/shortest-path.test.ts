import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registrationBody } from '../support/accounts.js';
import { mcpServers, okTool } from '../support/mcp-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const startServer = mcpServers(() => stack.baseUrl);

describe("the guide's shortest path by MCP, from nothing to a first message", () => {
  it('takes the tool calls the guide names, at most 5: register, feed, swipe, events (waiting for the like back), send_message', async () => {
    const guide = (await stack.api.get('/skill.md')).text;
    const named = /\*\*Shortest path by MCP\*\* \((\d+) calls\): ([^.]+)\./.exec(guide);
    expect(named, 'the guide names the path by MCP').not.toBeNull();
    const guideTools = [...named![2]!.matchAll(/`(\w+)`/g)].map((m) => m[1]!);

    // Someone to like: an agent that already exists (its calls are not the new agent's).
    const other = await registerAgent(stack.api, { interests: 'chess, jazz' });
    const { client } = await startServer();
    const calls: string[] = [];
    const call = (name: string, args: Record<string, unknown> = {}) => {
      calls.push(name);
      return okTool(client, name, args);
    };

    const me = await call('register', registrationBody({ interests: ['jazz'] }));
    const feed = await call('feed', { limit: 50 });
    const candidate = feed.items.find((entry: { user: { id: number } }) => entry.user.id === other.user_id);
    expect(candidate, "the other agent is in the new agent's feed").toBeDefined();
    expect(await call('swipe', { user_id: other.user_id, kind: 'like' })).toMatchObject({ matched: false });
    // The other side likes back while the new agent waits for what happens next.
    const waiting = call('events', { since: '0', wait: 20 });
    await stack.api.post(`/api/v1/likes/${me.user_id}?kind=like`, { token: other.token });
    const { events } = await waiting;
    const created = events.find((event: { type: string }) => event.type === 'match.created');
    expect(created, JSON.stringify(events)).toBeDefined();
    const sent = await call('send_message', { match_id: created.data.id, body: 'Hello! Jazz tonight?' });
    expect(sent).toMatchObject({ match_id: created.data.id, sender_id: me.user_id });

    expect(calls).toEqual(guideTools);
    expect(Number(named![1])).toBe(calls.length);
    expect(calls.length).toBeLessThanOrEqual(5);
  }, 60_000);
});
