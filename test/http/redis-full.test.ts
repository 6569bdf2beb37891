import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { PASSWORD, registerAgent, registrationBody } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { keys } from '../../src/platform/redis/keys.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { fillRedis, refusedForMemory, snapshotKeys, unfillRedis } from '../support/redis-memory.js';
import { startApp, startStack, type TestApp } from '../support/stack.js';
import { eventually } from '../support/eventually.js';

// No embedded worker: an account's feed stays unranked until read, so a read has a ranking to store.
let stack: Awaited<ReturnType<typeof startStack>>;
let probe: Redis;
let worker: TestApp | undefined;
beforeAll(async () => {
  stack = await startStack({ EMBEDDED_WORKER: false });
  probe = stack.redis.client() as Redis;
});
afterAll(async () => {
  probe?.disconnect();
  await worker?.stop();
  await stack?.stop();
});

const expectStorageFull = (name: string, res: JsonResponse) => {
  expect({ name, status: res.status, code: res.body?.error?.code }).toEqual({ name, status: 507, code: 'storage_full' });
  expect(res.headers['retry-after'], name).toMatch(/^\d+$/);
};
const expectOk = (name: string, res: JsonResponse, status = 200) => expect({ name, status: res.status }).toEqual({ name, status });

async function replay(path: string, token?: string) {
  const socket = await EventSocket.open(stack.baseUrl, path, { token });
  const frames = await socket.waitFor(1);
  socket.ws.terminate();
  return frames;
}

describe('when Redis is full', () => {
  it('refuses every write with 507 storage_full and Retry-After, stores nothing, keeps every read working, and recovers by itself', async () => {
    const { api } = stack;
    const [a, b, c] = [await registerAgent(api), await registerAgent(api), await registerAgent(api)];
    await api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    const matchId = (await api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id as number;
    const [c2] = [await registerAgent(api)];
    await api.post(`/api/v1/likes/${c2.user_id}?kind=like`, { token: c.token });
    const otherMatchId = (await api.post(`/api/v1/likes/${c.user_id}?kind=like`, { token: c2.token })).body.match.id as number;
    expectOk('message', await api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'before' } }), 201);
    expectOk('ranked feed', await api.get('/api/v1/discovery/feed', { token: a.token }));
    // d's feed was never ranked (no worker): its first read ranks it, which needs a write.
    const d = await registerAgent(api);
    await api.post(`/api/v1/likes/${c2.user_id}?kind=pass`, { token: d.token });

    await fillRedis(probe);
    const before = await snapshotKeys(probe);

    const writes: Array<[string, () => Promise<JsonResponse>]> = [
      ['register agent', () => api.post('/api/v1/agents/register', { body: registrationBody() })],
      ['register member', () => api.post('/api/v1/auth/register', { body: registrationBody() })],
      ['update profile', () => api.patch('/api/v1/me', { token: a.token, body: { bio: 'changed while full' } })],
      ['like', () => api.post(`/api/v1/likes/${d.user_id}?kind=like`, { token: a.token })],
      ['pass', () => api.post(`/api/v1/likes/${d.user_id}?kind=pass`, { token: b.token })],
      ['super like', () => api.post(`/api/v1/likes/${d.user_id}?kind=super_like`, { token: c.token, headers: { 'idempotency-key': 'full-1' } })],
      ['mutual like', () => api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: d.token })],
      ['message', () => api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'while full' } })],
      ['unmatch', () => api.delete(`/api/v1/matches/${otherMatchId}`, { token: c.token })],
      ['undo a pass', () => api.delete(`/api/v1/likes/${c2.user_id}`, { token: d.token })],
      ['logout', () => api.post('/api/v1/auth/logout', { token: c2.token })],
    ];
    for (const [name, write] of writes) expectStorageFull(name, await write());

    const reads: Array<[string, () => Promise<JsonResponse>]> = [
      ['me', () => api.get('/api/v1/me', { token: a.token })],
      ['profile', () => api.get(`/api/v1/users/${b.user_id}`, { token: a.token })],
      ['ranked feed', () => api.get('/api/v1/discovery/feed', { token: a.token })],
      ['unranked feed', () => api.get('/api/v1/discovery/feed', { token: d.token })],
      ['browse', () => api.get('/api/v1/discovery/browse?interests=chess', { token: a.token })],
      ['matches', () => api.get('/api/v1/matches', { token: a.token })],
      ['match', () => api.get(`/api/v1/matches/${matchId}`, { token: a.token })],
      ['messages', () => api.get(`/api/v1/matches/${matchId}/messages`, { token: a.token })],
      ['spectator matches', () => api.get('/api/v1/spectator/matches')],
      ['spectator messages', () => api.get(`/api/v1/spectator/matches/${matchId}/messages`)],
      ['readyz', () => api.get('/readyz')],
      // a login stores nothing: the login limit cannot count it while full, and lets it through
      ['login', () => api.post('/api/v1/auth/login', { body: { email: a.email, password: PASSWORD } })],
    ];
    for (const [name, read] of reads) expectOk(name, await read());
    const unranked = await api.get('/api/v1/discovery/feed', { token: d.token });
    expect(unranked.body.items.map((item: { user: { id: number } }) => item.user.id)).toEqual(expect.arrayContaining([a.user_id, b.user_id]));
    // its passes cannot expire while full (that is a write), but it still says how many are left
    expect(unranked.body).toMatchObject({ remaining: expect.any(Number), exhausted: false });
    expect(unranked.body.items.map((item: { user: { id: number } }) => item.user.id)).not.toContain(c2.user_id);
    expect((await replay('/api/v1/ws?since=0', a.token))[0]!.type).toBe('match.created');
    expect((await replay('/api/v1/spectator/stream?since=0'))[0]!.type).toBe('match.created');

    // Nothing of any refused write was stored, and no read stored anything either.
    expect(await snapshotKeys(probe)).toEqual(before);

    // A server with a ranking worker starts while Redis is full, and its worker waits for room without
    // spinning (BullMQ alone would retry a refused job fetch at once, thousands of times a second).
    const refusedBefore = await refusedForMemory(probe);
    worker = await startApp(stack.redis, { EMBEDDED_WORKER: true });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await refusedForMemory(probe)).toBeLessThan(refusedBefore + 50);
    expect(await probe.zscore(keys.rankedFeeds('agent', indexPartition(d.user_id)), String(d.user_id))).toBeNull();

    await unfillRedis(probe);
    expectOk('like', await api.post(`/api/v1/likes/${d.user_id}?kind=like`, { token: a.token }));
    expectOk('mutual like', await api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: d.token }));
    expectOk('message', await api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'after' } }), 201);
    expectOk('update profile', await api.patch('/api/v1/me', { token: a.token, body: { bio: 'changed after' } }));
    expectOk('unmatch', await api.delete(`/api/v1/matches/${otherMatchId}`, { token: c.token }), 204);
    expectOk('register', await api.post('/api/v1/agents/register', { body: registrationBody() }), 201);
    expectOk('logout', await api.post('/api/v1/auth/logout', { token: c2.token }), 204);
    const thread = await api.get(`/api/v1/matches/${matchId}/messages`, { token: a.token });
    expect(thread.body.items.map((m: { body: string }) => m.body)).toEqual(['before', 'after']);
    // The ranking job d's registration queued runs once there is room.
    await eventually('d ranked', async () =>
      expect(await probe.zscore(keys.rankedFeeds('agent', indexPartition(d.user_id)), String(d.user_id))).not.toBeNull(),
    );
  }, 30_000);
});
