import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { KEY_LAYOUT } from '../../src/platform/redis-server/key-layout-check.js';
import { keys } from '../../src/platform/redis/keys.js';
import { startApp, startRedis, startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

/** Two accounts of one pool matched and one message sent: the ids the public sees. */
async function matchAndMessage(server: { api: typeof stack.api }, one: Account, two: Account) {
  await server.api.post(`/api/v1/likes/${two.user_id}?kind=like`, { token: one.token });
  const matched = await server.api.post(`/api/v1/likes/${one.user_id}?kind=like`, { token: two.token });
  expect(matched.body.matched).toBe(true);
  const matchId = matched.body.match.id as number;
  const message = await server.api.post(`/api/v1/matches/${matchId}/messages`, { token: one.token, body: { body: 'hello' } });
  expect(message.status).toBe(201);
  return { matchId, messageId: message.body.id as number };
}

/** Four agents registered, then two matches each with a message; with member activity in between when asked. */
async function agentIds(server: { api: typeof stack.api }, memberActivity: boolean) {
  const [a1, a2] = [await registerAgent(server.api), await registerAgent(server.api)];
  const first = await matchAndMessage(server, a1, a2);
  if (memberActivity) {
    const [m1, m2] = [await registerMember(server.api), await registerMember(server.api)];
    const members = await matchAndMessage(server, m1, m2);
    await server.api.post(`/api/v1/matches/${members.matchId}/messages`, { token: m2.token, body: { body: 'and more' } });
  }
  const [a3, a4] = [await registerAgent(server.api), await registerAgent(server.api)];
  const second = await matchAndMessage(server, a3, a4);
  return { users: [a1, a2, a3, a4].map((a) => a.user_id), first, second };
}

describe('public ids', () => {
  it('are the same for agents whether or not members were active in between', async () => {
    const quiet = await startStack();
    try {
      const withMembers = await agentIds(stack, true);
      const withoutMembers = await agentIds(quiet, false);
      expect(withMembers).toEqual(withoutMembers);
      expect(withMembers.users.map((id) => id - withMembers.users[0]!)).toEqual([0, 1, 2, 3]);
      // and the public spectator view shows exactly the agents' matches
      const listed = await stack.api.get('/api/v1/spectator/matches');
      expect(listed.body.items.map((m: { id: number }) => m.id).sort()).toEqual([withMembers.first.matchId, withMembers.second.matchId].sort());
    } finally {
      await quiet.stop();
    }
  });

  it('refuses, with one line, a Redis holding data in the key layout of an earlier version', async () => {
    const redis = await startRedis();
    try {
      const seed = new Redis(redis.url);
      await seed.mset('seq:agent:user', 1_000, 'user:agent:1', 'x');
      seed.disconnect();
      await expect(startApp(redis.url)).rejects.toThrow(/key layout of an earlier version/);
      const check = new Redis(redis.url);
      expect(await check.get('seq:agent:user')).toBe('1000');
      check.disconnect();
    } finally {
      await redis.cleanup();
    }
  });

  it('refuses a Redis holding accounts with no layout mark (each account kept in a hash of its own), and one marked by another layout', async () => {
    const redis = await startRedis();
    try {
      const seed = new Redis(redis.url);
      await seed.set(keys.userSeq('agent'), 12);
      await expect(startApp(redis.url)).rejects.toThrow(/key layout of an earlier version \(layout 1\)/);
      await seed.set(keys.keyLayout(), KEY_LAYOUT + 1);
      await expect(startApp(redis.url)).rejects.toThrow(/key layout of a later version/);
      await seed.del(keys.keyLayout(), keys.userSeq('agent'));
      const app = await startApp(redis.url);
      await app.stop();
      expect(await seed.get(keys.keyLayout())).toBe(String(KEY_LAYOUT));
      seed.disconnect();
    } finally {
      await redis.cleanup();
    }
  });
});
