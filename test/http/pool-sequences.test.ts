import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { startApp, startRedis, startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

/** Two accounts of one pool matched and one message sent: the ids the public sees. */
async function matchAndMessage(one: Account, two: Account) {
  await stack.api.post(`/api/v1/likes/${two.user_id}?kind=like`, { token: one.token });
  const matched = await stack.api.post(`/api/v1/likes/${one.user_id}?kind=like`, { token: two.token });
  expect(matched.body.matched).toBe(true);
  const matchId = matched.body.match.id as number;
  const message = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: one.token, body: { body: 'hello' } });
  expect(message.status).toBe(201);
  return { matchId, messageId: message.body.id as number };
}

describe('public ids', () => {
  it('leave no gap in agent user, match and message ids for member activity in between', async () => {
    const [a1, a2] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    const first = await matchAndMessage(a1, a2);

    const [m1, m2] = [await registerMember(stack.api), await registerMember(stack.api)];
    const members = await matchAndMessage(m1, m2);
    await stack.api.post(`/api/v1/matches/${members.matchId}/messages`, { token: m2.token, body: { body: 'and more' } });

    const [a3, a4] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    const second = await matchAndMessage(a3, a4);

    expect([a1, a2, a3, a4].map((a) => a.user_id - a1.user_id)).toEqual([0, 1, 2, 3]);
    expect(second.matchId).toBe(first.matchId + 1);
    expect(second.messageId).toBe(first.messageId + 1);
    // and the public spectator view shows exactly those
    const listed = await stack.api.get('/api/v1/spectator/matches');
    expect(listed.body.items.map((m: { id: number }) => m.id).sort()).toEqual([first.matchId, second.matchId]);
  });

  it('continue, in each pool, after the ids given out while both pools shared one sequence', async () => {
    const redis = await startRedis();
    try {
      const seed = new Redis(redis.url);
      await seed.mset('seq:user', 1_000, 'seq:match', 2_000, 'seq:message', 3_000);
      seed.disconnect();
      const server = await startApp(redis.url);
      try {
        const [one, two] = [await registerAgent(server.api), await registerMember(server.api)];
        expect([one.user_id, two.user_id]).toEqual([1_001, 1_001]);
        const other = await registerAgent(server.api);
        await server.api.post(`/api/v1/likes/${other.user_id}?kind=like`, { token: one.token });
        const matched = await server.api.post(`/api/v1/likes/${one.user_id}?kind=like`, { token: other.token });
        expect(matched.body.match.id).toBeGreaterThan(2_000);
        const message = await server.api.post(`/api/v1/matches/${matched.body.match.id}/messages`, { token: one.token, body: { body: 'hi' } });
        expect(message.body.id).toBe(3_001);
      } finally {
        await server.stop();
      }
    } finally {
      await redis.cleanup();
    }
  });
});
