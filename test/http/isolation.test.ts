import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../../src/platform/core/pool.js';
import { keys } from '../../src/platform/redis/keys.js';
import { registerAgent, registerMember, registrationBody, type Account } from '../support/accounts.js';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { moveMemberIdsAway } from '../support/pool-ids.js';
import { seedAccounts } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';
import { poolMatchIds } from '../support/pool-matches.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
  // Each pool counts its own ids; with the member pool's far from the agents', an id of one pool names no
  // account or match of the other, so every cross-pool request below must be refused as unknown.
  await moveMemberIdsAway(stack.app.redis);
});
afterAll(() => stack?.stop());

/** A small seeded PRNG (mulberry32), so a failing run can be replayed from its seed. */
function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}

type Actor = Account & { pool: Pool; name: string };

/** Every user id a response names: profiles (`id` of a user object) and the *_user_id / sender_id / users fields. */
function userIdsIn(value: unknown, out: number[] = [], key = ''): number[] {
  if (Array.isArray(value)) {
    for (const item of value) userIdsIn(item, out, key === 'users' ? 'user' : key);
  } else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (key === 'user' || key === 'from' || 'display_name' in object) out.push(Number(object.id));
    for (const [k, v] of Object.entries(object)) {
      if (k === 'from_user_id' || k === 'to_user_id' || k === 'sender_id' || k === 'user_id') out.push(Number(v));
      else userIdsIn(v, out, k);
    }
  }
  return out;
}

describe('pool isolation under random operations', () => {
  it('never shows an agent anything of a member, or a member anything of an agent; a member never reaches an agent', async () => {
    const seed = Number(process.env.ISOLATION_SEED ?? Date.now() % 1_000_000);
    const random = prng(seed);
    const tag = Math.random().toString(36).slice(2, 7);
    const actors: Actor[] = [];
    const register = async (pool: Pool, i: number) => {
      const name = `${pool === 'agent' ? 'Agentoid' : 'Humanoid'}-${tag}-${i}`;
      const overrides = { display_name: name, interests: random.pick(['chess, jazz', 'chess, go', 'jazz, go, origami']) };
      const account = pool === 'agent' ? await registerAgent(stack.api, overrides) : await registerMember(stack.api, overrides);
      actors.push({ ...account, pool, name });
    };
    await Promise.all([...Array.from({ length: 8 }, (_, i) => register('agent', i)), ...Array.from({ length: 8 }, (_, i) => register('member', i))]);
    const poolOf = new Map(actors.map((a) => [a.user_id, a.pool]));
    const matchPool = new Map<number, Pool>();
    const matchUsers = new Map<number, number[]>();
    const counts: Record<string, number> = {};

    const check = (actor: Actor, what: string, res: JsonResponse) => {
      const context = `seed ${seed}: ${actor.pool} ${actor.user_id} ${what} → ${res.status} ${res.text.slice(0, 300)}`;
      expect(res.status, context).toBeLessThan(500);
      for (const other of actors) if (other.pool !== actor.pool) expect(res.text.includes(other.name), context).toBe(false);
      for (const id of userIdsIn(res.body)) expect(poolOf.get(id), `${context} (user ${id})`).toBe(actor.pool);
      const match = res.body?.match ?? (what.startsWith('GET /matches/') ? res.body : undefined);
      for (const m of [...(res.body?.items ?? []), match]) {
        if (m && typeof m === 'object' && 'shared_interests' in m) {
          matchPool.set(m.id, actor.pool);
          matchUsers.set(m.id, [actor.user_id, m.user.id]);
        }
      }
    };

    const operation = async () => {
      const actor = random.pick(actors);
      const target = random.pick(actors);
      // mostly a match of the actor's own, else anyone's (either pool), else an id no match has
      const own = [...matchUsers].filter(([id, users]) => matchPool.get(id) === actor.pool && users.includes(actor.user_id)).map(([id]) => id);
      const all = [...matchPool.keys()];
      const roll0 = random.next();
      const matchId = own.length > 0 && roll0 < 0.6 ? random.pick(own) : all.length > 0 && roll0 < 0.9 ? random.pick(all) : 1_000_000 + random.int(50);
      const roll = random.next();
      let what: string;
      let res: JsonResponse;
      if (roll < 0.4) {
        const kind = random.next() < 0.8 ? 'like' : random.pick(['pass', 'super_like']);
        what = `POST /likes/${target.user_id}?kind=${kind}`;
        res = await stack.api.post(`/api/v1/likes/${target.user_id}?kind=${kind}`, { token: actor.token });
        if (target.user_id === actor.user_id) expect(res.status, what).toBe(400);
        else if (target.pool !== actor.pool) expect(res.status, `seed ${seed}: ${actor.pool} ${what}`).toBe(404);
        else expect(res.status, what).toBe(200);
      } else if (roll < 0.55) {
        what = 'GET /matches';
        res = await stack.api.get(`/api/v1/matches?limit=${1 + random.int(5)}`, { token: actor.token });
        expect(res.status).toBe(200);
      } else if (roll < 0.7) {
        what = `POST /matches/${matchId}/messages`;
        res = await stack.api.post(`/api/v1/matches/${matchId}/messages`, {
          token: actor.token,
          body: { body: `hello from ${actor.name}, fancy some chess?` },
        });
        const mine = matchPool.get(matchId) === actor.pool && matchUsers.get(matchId)?.includes(actor.user_id);
        if (!mine) expect(res.status, `seed ${seed}: ${actor.pool} ${what}`).toBe(404);
      } else if (roll < 0.8) {
        what = `GET /matches/${matchId}/messages`;
        res = await stack.api.get(`/api/v1/matches/${matchId}/messages?limit=${1 + random.int(10)}`, { token: actor.token });
        if (matchPool.get(matchId) !== actor.pool) expect(res.status, `seed ${seed}: ${actor.pool} ${what}`).toBe(404);
      } else if (roll < 0.88) {
        what = `GET /matches/${matchId}`;
        res = await stack.api.get(`/api/v1/matches/${matchId}`, { token: actor.token });
        if (matchPool.get(matchId) !== actor.pool) expect(res.status, `seed ${seed}: ${actor.pool} ${what}`).toBe(404);
      } else if (roll < 0.99) {
        what = `GET /users/${target.user_id}`;
        res = await stack.api.get(`/api/v1/users/${target.user_id}`, { token: actor.token });
        expect(res.status, what).toBe(target.pool === actor.pool ? 200 : 404);
      } else {
        what = `DELETE /matches/${matchId}`;
        res = await stack.api.delete(`/api/v1/matches/${matchId}`, { token: actor.token });
        if (matchPool.get(matchId) !== actor.pool) expect(res.status, `seed ${seed}: ${actor.pool} ${what}`).toBe(404);
      }
      const label = `${what.split(/[/?]/).slice(0, 2).join('')} ${res.status}`;
      counts[label] = (counts[label] ?? 0) + 1;
      check(actor, what, res);
    };

    const OPERATIONS = 3000;
    const CONCURRENCY = 16;
    for (let done = 0; done < OPERATIONS; done += CONCURRENCY) {
      await Promise.all(Array.from({ length: CONCURRENCY }, operation));
    }

    // the run did exercise what it claims to: matches in both pools, messages, cross-pool refusals
    expect(new Set(matchPool.values())).toEqual(new Set(['agent', 'member']));
    expect(counts['POST likes 404'] ?? 0, JSON.stringify(counts)).toBeGreaterThan(50);
    expect(counts['POST matches 201'] ?? 0).toBeGreaterThan(50);

    // and the data model agrees: every match of a pool joins two users of that pool
    for (const pool of ['agent', 'member'] as const) {
      const ids = await poolMatchIds(stack.app.redis, pool);
      for (const id of ids) {
        const [a, b] = await stack.app.redis.hmget(keys.match(pool, id), 'user_a', 'user_b');
        expect([poolOf.get(Number(a)), poolOf.get(Number(b))]).toEqual([pool, pool]);
      }
    }
  });
});

describe('e-mails, a namespace per pool', () => {
  const login = (body: Record<string, unknown>) => stack.api.post('/api/v1/auth/login', { body });
  const me = async (token: string) => (await stack.api.get('/api/v1/me', { token })).body;

  it("an agent registration neither reveals nor blocks a member's e-mail, and each logs into its own pool", async () => {
    const member = await registerMember(stack.api, { password: 'Member-Pass-42', display_name: 'The Member' });
    // the same e-mail registers as an agent: no 409 that would tell the e-mail is a member's
    const agent = await registerAgent(stack.api, { email: member.email, password: 'Agent-Pass-420', display_name: 'The Agent' });
    expect(agent.user_id).toBeGreaterThan(0);
    // and the other way round: an agent's e-mail does not keep its owner from becoming a member
    const first = await registerAgent(stack.api);
    const second = await registerMember(stack.api, { email: first.email });
    expect(second.user_id).toBeGreaterThan(0);
    // within a pool the e-mail is still unique
    const again = await stack.api.post('/api/v1/auth/register', { body: registrationBody({ email: member.email }) });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('email_taken');

    // login told the pool reaches that pool's account only
    const asMember = await login({ email: member.email, password: 'Member-Pass-42', pool: 'member' });
    expect(asMember.status).toBe(200);
    expect(asMember.body.user_id).toBe(member.user_id);
    expect((await me(asMember.body.token)).display_name).toBe('The Member');
    expect((await login({ email: member.email, password: 'Agent-Pass-420', pool: 'member' })).status).toBe(401);
    const asAgent = await login({ email: member.email, password: 'Agent-Pass-420', pool: 'agent' });
    expect(asAgent.status).toBe(200);
    expect((await me(asAgent.body.token)).display_name).toBe('The Agent');
    // without the pool, the password tells which account
    expect((await me((await login({ email: member.email, password: 'Member-Pass-42' })).body.token)).display_name).toBe('The Member');
    expect((await me((await login({ email: member.email, password: 'Agent-Pass-420' })).body.token)).display_name).toBe('The Agent');
    // a pool that is not one is a clear 400
    const bad = await login({ email: member.email, password: 'Agent-Pass-420', pool: 'robots' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'pool', message: 'must be agent or member' }]);
  });
});

describe('blocks, within a pool', () => {
  it('a member can neither block nor unblock an agent, nor the reverse: 404 as if absent, and nothing is stored', async () => {
    const [agent] = await seedAccounts(stack.app, 'agent', 1);
    const [member] = await seedAccounts(stack.app, 'member', 1);
    expect(await stack.app.users.exists('agent', member!.user_id)).toBe(false);
    expect(await stack.app.users.exists('member', agent!.user_id)).toBe(false);
    for (const [who, other, pool] of [
      [member!, agent!, 'member'],
      [agent!, member!, 'agent'],
    ] as const) {
      const blocked = await stack.api.post(`/api/v1/blocks/${other.user_id}`, { token: who.token });
      expect(blocked.status).toBe(404);
      expect(blocked.body.error.code).toBe('not_found');
      expect((await stack.api.delete(`/api/v1/blocks/${other.user_id}`, { token: who.token })).status).toBe(404);
      expect((await stack.api.get('/api/v1/blocks', { token: who.token })).body).toEqual({ items: [], next_cursor: null });
      expect(await stack.app.redis.exists(keys.blocks(pool, who.user_id), keys.hidden(pool, who.user_id))).toBe(0);
      expect(await stack.app.redis.exists(keys.pair(pool, who.user_id, other.user_id))).toBe(0);
    }
  });
});
