import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { EventSocket, type Frame } from '../support/event-socket.js';
import { startStack } from '../support/stack.js';
import { whereStored } from '../support/stored-values.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';

let stack: Awaited<ReturnType<typeof startStack>>;
const open: EventSocket[] = [];
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

const unique = Math.random().toString(36).slice(2, 10);
const eventsOf = async (token: string) => (await stack.api.get('/api/v1/events?since=0&limit=100', { token })).body.events as Frame[];

describe('events that show profiles (match.created, like.received)', () => {
  it('keep no copy of a profile in their streams: every replay shows the profile as it is now', async () => {
    const name = `Card ${unique}`;
    const a = await registerAgent(stack.api, { display_name: name });
    const b = await registerAgent(stack.api);
    const c = await registerAgent(stack.api);
    const live = await EventSocket.open(stack.baseUrl, '/api/v1/ws', { token: b.token });
    open.push(live);
    await stack.api.post(`/api/v1/likes/${c.user_id}?kind=super_like`, { token: a.token });
    await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    const matched = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
    expect(matched.body.matched).toBe(true);
    // Live, the frame carries the profile as it was.
    expect((await live.waitForFrame((frame) => frame.type === 'match.created')).data.user.display_name).toBe(name);

    // Stored: the name is in the account's own record only, in no stream (the users' nor the spectators').
    expect(Object.keys(await whereStored(stack.app.redis, name))).toEqual([keys.accounts('agent', indexPartition(a.user_id))]);

    const renamed = `Renamed ${unique}`;
    expect((await stack.api.patch('/api/v1/me', { token: a.token, body: { display_name: renamed } })).status).toBe(200);
    const created = (await eventsOf(b.token)).find((frame) => frame.type === 'match.created');
    expect(created?.data.user.display_name).toBe(renamed);
    const liked = (await eventsOf(c.token)).find((frame) => frame.type === 'like.received');
    expect(liked?.data.from.display_name).toBe(renamed);
    const spectator = await EventSocket.open(stack.baseUrl, '/api/v1/spectator/stream?since=0');
    open.push(spectator);
    const shown = await spectator.waitForFrame((frame) => frame.type === 'match.created' && frame.data.match.id === matched.body.match.id);
    expect(shown.data.match.users.map((user: { display_name: string }) => user.display_name)).toContain(renamed);
  });
});
