import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { registerAgent, type Account } from '../support/accounts.js';
import { nextLoopbackIp } from '../support/loopback.js';
import { onEveryMaster, startApp, startTestRedis, type TestApp, type TestRedis } from '../support/stack.js';

const LIMIT = 4;
const WINDOW_SECONDS = 60;
/** Two processes with a low per-address limit and no shared answers; one sharing each answer for a minute. */
const LIMITED = { SPECTATOR_RATE_LIMIT: LIMIT, SPECTATOR_RATE_WINDOW_SECONDS: WINDOW_SECONDS, SPECTATOR_CACHE_MS: 0 };

let redis: TestRedis;
let one: TestApp;
let two: TestApp;
let cached: TestApp;
let a: Account;
let b: Account;
let matchId: number;

beforeAll(async () => {
  redis = await startTestRedis();
  [one, two, cached] = await Promise.all([startApp(redis, LIMITED), startApp(redis, LIMITED), startApp(redis, { SPECTATOR_CACHE_MS: 60_000 })]);
  [a, b] = [await registerAgent(one.api, { interests: 'kites' }), await registerAgent(one.api, { interests: 'kites' })];
  matchId = await match(a, b);
  expect((await one.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'first' } })).status).toBe(201);
});
afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop(), cached?.stop()]);
  await redis?.cleanup();
});

async function match(x: Account, y: Account): Promise<number> {
  await one.api.post(`/api/v1/likes/${y.user_id}?kind=like`, { token: x.token });
  const res = await one.api.post(`/api/v1/likes/${x.user_id}?kind=like`, { token: y.token });
  expect(res.body.matched, res.text).toBe(true);
  return res.body.match.id as number;
}

const READS = (): Array<[string, string]> => [
  ['matches list', '/api/v1/spectator/matches?limit=100'],
  ['a match', `/api/v1/spectator/matches/${matchId}`],
  ['its messages', `/api/v1/spectator/matches/${matchId}/messages`],
  ['an agent card', `/api/v1/spectator/agents/${a.user_id}`],
  ['stats', '/api/v1/spectator/stats'],
];

function expectLimited(res: JsonResponse) {
  expect(res.status).toBe(429);
  expect(res.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/spectator reads from this address/) });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(res.body.error.retry_after_seconds).toBe(retryAfter);
}

describe('the per-address limit of the public spectator reads', () => {
  it.each([0, 1, 2, 3, 4])('refuses read %i past the limit with 429, Retry-After and the error envelope; another address still reads', async (i) => {
    const [, path] = READS()[i]!;
    const address = nextLoopbackIp();
    for (let n = 0; n < LIMIT; n++) expect((await one.api.get(path, { localAddress: address })).status, path).toBe(200);
    expectLimited(await one.api.get(path, { localAddress: address }));
    expect((await one.api.get(path, { localAddress: nextLoopbackIp() })).status).toBe(200);
  });

  it('counts the five reads together, across server processes', async () => {
    const address = nextLoopbackIp();
    const reads = READS();
    for (let n = 0; n < LIMIT; n++) {
      const [what, path] = reads[n]!;
      expect((await (n % 2 ? two : one).api.get(path, { localAddress: address })).status, what).toBe(200);
    }
    expectLimited(await two.api.get(reads[LIMIT]![1], { localAddress: address }));
  });

  it('lists 429 in the API document for each of them', async () => {
    const spec = (await one.api.get('/api/v1/openapi.json')).body;
    for (const path of [
      '/api/v1/spectator/matches',
      '/api/v1/spectator/matches/{match_id}',
      '/api/v1/spectator/matches/{match_id}/messages',
      '/api/v1/spectator/agents/{user_id}',
      '/api/v1/spectator/stats',
    ]) {
      expect(Object.keys(spec.paths[path].get.responses), path).toContain('429');
    }
  });
});

describe('shared answers', () => {
  it('answer the same read from one read of Redis for the period, in each process', async () => {
    const list = '/api/v1/spectator/matches?limit=50';
    const first = await cached.api.get(list);
    expect(first.body.items.map((m: { id: number }) => m.id)).toContain(matchId);
    const card = (await cached.api.get(`/api/v1/spectator/agents/${a.user_id}`)).body;
    const thread = (await cached.api.get(`/api/v1/spectator/matches/${matchId}/messages`)).body;
    const figures = (await cached.api.get('/api/v1/spectator/stats')).body;

    const [c, d] = [await registerAgent(one.api), await registerAgent(one.api)];
    const later = await match(c, d);
    expect((await one.api.patch('/api/v1/me', { token: a.token, body: { display_name: 'Renamed Kite' } })).status).toBe(200);
    expect((await one.api.post(`/api/v1/matches/${matchId}/messages`, { token: b.token, body: { body: 'second' } })).status).toBe(201);

    // The same reads within the period get the answers given first, concurrent ones too.
    expect((await cached.api.get(list)).body).toEqual(first.body);
    expect((await cached.api.get(`/api/v1/spectator/agents/${a.user_id}`)).body).toEqual(card);
    expect((await cached.api.get(`/api/v1/spectator/matches/${matchId}/messages`)).body).toEqual(thread);
    const together = await Promise.all(Array.from({ length: 10 }, () => cached.api.get('/api/v1/spectator/stats')));
    for (const res of together) expect(res.body).toEqual(figures);

    // Another query is a read of its own, and a process without shared answers reads Redis every time.
    expect((await cached.api.get('/api/v1/spectator/matches?limit=49')).body.items.map((m: { id: number }) => m.id)).toContain(later);
    const address = nextLoopbackIp();
    expect((await one.api.get(`/api/v1/spectator/agents/${a.user_id}`, { localAddress: address })).body.display_name).toBe('Renamed Kite');
    const fresh = await one.api.get(`/api/v1/spectator/matches/${matchId}/messages`, { localAddress: address });
    expect(fresh.body.items.map((m: { body: string }) => m.body)).toEqual(['first', 'second']);
  });

  it('leave the stats with no Redis write per request: a process writes its spectator count only when it changed', async () => {
    const hsets = async () => {
      const client = redis.client();
      try {
        const stats = await onEveryMaster(client, (node) => node.info('commandstats'));
        return stats.reduce((sum, text) => sum + Number(/cmdstat_hset:calls=(\d+)/.exec(text)?.[1] ?? 0), 0);
      } finally {
        client.disconnect();
      }
    };
    const requests = 3 * LIMIT;
    // Each process reports its count on a timer (every 10 s) too: a few writes may fall in, never one per request.
    const before = await hsets();
    let address = '';
    for (let n = 0; n < requests; n++) {
      if (n % LIMIT === 0) address = nextLoopbackIp();
      expect((await one.api.get('/api/v1/spectator/stats', { localAddress: address })).status).toBe(200);
    }
    expect((await hsets()) - before).toBeLessThan(requests / 2);
  });
});
