import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { startTwoApps } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startTwoApps>>;
const sockets: EventSocket[] = [];

beforeAll(async () => {
  stack = await startTwoApps();
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.close();
  await stack?.stop();
});

async function match(a: Account, b: Account): Promise<number> {
  await stack.one.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  const res = await stack.one.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
  expect(res.body.matched).toBe(true);
  return res.body.match.id;
}

const stats = async (api = stack.one.api) => {
  const res = await api.get('/api/v1/spectator/stats');
  expect(res.status).toBe(200);
  return res.body;
};

describe('GET /api/v1/spectator/stats', () => {
  it("counts today's agent matches and messages, the event rate, the agents and the spectators of every process", async () => {
    const before = await stats();
    expect(before).toMatchObject({ matches_today: 0, messages_today: 0, events_per_minute: 0, spectators_watching: 0, synthetic: true });

    const a = await registerAgent(stack.one.api, { display_name: 'Stat Owl', interests: 'tea, kites' });
    const b = await registerAgent(stack.two.api, { display_name: 'Stat Lark', interests: 'tea' });
    await registerMember(stack.one.api);
    const matchId = await match(a, b);
    for (const body of ['one', 'two', 'three']) {
      expect((await stack.two.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body } })).status).toBe(201);
    }
    // A member match is never counted.
    const m1 = await registerMember(stack.one.api);
    const m2 = await registerMember(stack.one.api);
    await match(m1, m2);

    sockets.push(await EventSocket.open(stack.one.baseUrl, '/api/v1/spectator/stream'));
    sockets.push(await EventSocket.open(stack.two.baseUrl, '/api/v1/spectator/stream'));
    sockets.push(await EventSocket.open(stack.two.baseUrl, '/api/v1/spectator/stream'));
    await stats(stack.two.api); // the other process writes its count when asked (and every 10 s)

    const after = await eventually('the figures', async () => {
      const figures = await stats();
      return figures.messages_today === 3 && figures;
    });
    expect(after).toMatchObject({ agents: 2, matches_today: 1, messages_today: 3, matches_ended_today: 0, spectators_watching: 3 });
    expect(after.events_per_minute).toBe(4);

    expect((await stack.one.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    await eventually('the end counted', async () => (await stats()).matches_ended_today === 1);

    sockets.pop()!.ws.close();
    await eventually('a closed socket no longer counted', async () => {
      await stats(stack.two.api);
      return (await stats()).spectators_watching === 2;
    });
  });
});

describe('GET /api/v1/spectator/matches/{id} and /api/v1/spectator/agents/{id}', () => {
  it("answers one current agent match and an agent's public card, never a member's, and never an e-mail or birthdate", async () => {
    const a = await registerAgent(stack.one.api, { display_name: 'Card Wren', bio: 'Builds kites.', city: 'Lyon', interests: 'kites, jazz', theme_id: 4 });
    const b = await registerAgent(stack.one.api, { display_name: 'Card Kite', interests: 'kites' });
    const matchId = await match(a, b);

    const one = await stack.two.api.get(`/api/v1/spectator/matches/${matchId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: matchId, shared_interests: ['kites'], synthetic: true, last_message: null });
    expect(one.body.users.map((u: { display_name: string }) => u.display_name).sort()).toEqual(['Card Kite', 'Card Wren']);

    const card = await stack.two.api.get(`/api/v1/spectator/agents/${a.user_id}`);
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ id: a.user_id, display_name: 'Card Wren', bio: 'Builds kites.', city: 'Lyon', theme_id: 4, synthetic: true });
    expect(card.body.interests).toEqual(['kites', 'jazz']);
    expect(typeof card.body.age).toBe('number');
    expect(Object.keys(card.body).sort()).toEqual(['age', 'bio', 'city', 'display_name', 'id', 'interests', 'synthetic', 'theme_id']);
    expect(JSON.stringify(card.body)).not.toContain('@');

    // Members and agents are numbered separately: a member's id names an agent of that id, or none.
    const member = await registerMember(stack.one.api, { display_name: 'Private Person' });
    const sameId = await stack.one.api.get(`/api/v1/spectator/agents/${member.user_id}`);
    expect(sameId.body.display_name ?? '').not.toBe('Private Person');
    expect((await stack.one.api.get('/api/v1/spectator/agents/999999')).status).toBe(404);
    expect((await stack.one.api.get('/api/v1/spectator/agents/abc')).status).toBe(400);
    expect((await stack.one.api.get('/api/v1/spectator/matches/999999')).status).toBe(404);

    expect((await stack.one.api.delete(`/api/v1/matches/${matchId}`, { token: a.token })).status).toBe(204);
    expect((await stack.one.api.get(`/api/v1/spectator/matches/${matchId}`)).status).toBe(404);
  });

  it('serves the page at a deep link to a match, with the same strict policy', async () => {
    const res = await fetch(`${stack.one.baseUrl}/spectator/matches/42`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('id="synthetic-label"');
  });
});
