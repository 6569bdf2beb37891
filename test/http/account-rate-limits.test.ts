import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, type Account } from '../support/accounts.js';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { eventually } from '../support/eventually.js';
import { startApp, startTestRedis, type TestApp } from '../support/stack.js';
import { startReceiver } from '../support/webhook-receiver.js';

const LIMITS = {
  DISCOVERY_RATE_LIMIT: 3,
  DISCOVERY_RATE_WINDOW_SECONDS: 60,
  LIKE_RATE_LIMIT: 3,
  LIKE_RATE_WINDOW_SECONDS: 60,
  MESSAGE_RATE_LIMIT: 2,
  MESSAGE_RATE_WINDOW_SECONDS: 60,
  PROFILE_RATE_LIMIT: 2,
  PROFILE_RATE_WINDOW_SECONDS: 60,
  WEBHOOK_TEST_RATE_LIMIT: 2,
  WEBHOOK_TEST_RATE_WINDOW_SECONDS: 60,
  WEBHOOK_ALLOW_PRIVATE: true,
};

const SHORT_WINDOW_SECONDS = 5;

let redis: Awaited<ReturnType<typeof startTestRedis>>;
let one: TestApp;
let two: TestApp;
let shortWindow: TestApp;
beforeAll(async () => {
  redis = await startTestRedis();
  [one, two, shortWindow] = await Promise.all([
    startApp(redis, LIMITS),
    startApp(redis, LIMITS),
    // A window long enough that three swipes in a row fall in it on any machine, short enough to wait out.
    startApp(redis, { ...LIMITS, LIKE_RATE_LIMIT: 2, LIKE_RATE_WINDOW_SECONDS: SHORT_WINDOW_SECONDS }),
  ]);
});
afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop(), shortWindow?.stop()]);
  await redis?.cleanup();
});

const like = (app: TestApp, from: Account, to: Account) => app.api.post(`/api/v1/likes/${to.user_id}?kind=like`, { token: from.token });

function expectLimited(res: JsonResponse, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('rate_limited');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.body.error.retry_after_seconds).toBe(retryAfter);
}

describe('per-account discovery limit', () => {
  it('counts feed and browse reads together, across server processes, per account', async () => {
    const [reader, other] = await Promise.all([registerAgent(one.api), registerAgent(one.api)]);
    const statuses = [
      (await one.api.get('/api/v1/discovery/feed', { token: reader.token })).status,
      (await two.api.get('/api/v1/discovery/browse', { token: reader.token })).status,
      (await one.api.get('/api/v1/discovery/feed', { token: reader.token })).status,
    ];
    expect(statuses).toEqual([200, 200, 200]);
    expectLimited(await two.api.get('/api/v1/discovery/feed', { token: reader.token }), 60);
    expectLimited(await one.api.get('/api/v1/discovery/browse?gender=female', { token: reader.token }), 60);
    // another account is not affected
    expect((await one.api.get('/api/v1/discovery/feed', { token: other.token })).status).toBe(200);
  });
});

describe('per-account like limit', () => {
  it('refuses swipes past the limit and records nothing for a refused one', async () => {
    const [swiper, a, b, c] = await Promise.all([registerAgent(one.api), registerAgent(one.api), registerAgent(one.api), registerAgent(one.api)]);
    expect((await like(one, c, swiper)).status).toBe(200); // c likes the swiper first: a like back would match
    expect((await like(one, swiper, a)).status).toBe(200);
    expect((await like(two, swiper, b)).status).toBe(200);
    expect((await like(one, swiper, a)).status).toBe(200);
    expectLimited(await like(two, swiper, c), 60);
    const matches = await one.api.get('/api/v1/matches', { token: swiper.token });
    expect(matches.body.items).toEqual([]);
    // the target of the refused swipe still sees nothing of it either
    expect((await one.api.get('/api/v1/matches', { token: c.token })).body.items).toEqual([]);
  });

  it('lets the account swipe again once the window has passed, as Retry-After says', async () => {
    const [swiper, target] = await Promise.all([registerAgent(one.api), registerAgent(one.api)]);
    expect((await like(shortWindow, swiper, target)).status).toBe(200);
    expect((await like(shortWindow, swiper, target)).status).toBe(200);
    const refused = await like(shortWindow, swiper, target);
    expectLimited(refused, SHORT_WINDOW_SECONDS);
    // What a client is told to do: the window ends within Retry-After seconds of the answer.
    await new Promise((r) => setTimeout(r, Number(refused.headers['retry-after']) * 1000));
    expect((await like(shortWindow, swiper, target)).status).toBe(200);
  });
});

describe('per-account message limit', () => {
  it('refuses messages past the limit and stores nothing for a refused one', async () => {
    const [x, y] = await Promise.all([registerAgent(one.api), registerAgent(one.api)]);
    await like(one, x, y);
    const matched = await like(one, y, x);
    const matchId = matched.body.match.id as number;
    const send = (app: TestApp, body: string) => app.api.post(`/api/v1/matches/${matchId}/messages`, { token: x.token, body: { body } });
    expect((await send(one, 'first')).status).toBe(201);
    expect((await send(two, 'second')).status).toBe(201);
    expectLimited(await send(one, 'third'), 60);
    const thread = await one.api.get(`/api/v1/matches/${matchId}/messages`, { token: y.token });
    expect(thread.body.items.map((m: { body: string }) => m.body)).toEqual(['first', 'second']);
    // the other side of the match has its own allowance
    expect((await one.api.post(`/api/v1/matches/${matchId}/messages`, { token: y.token, body: { body: 'reply' } })).status).toBe(201);
  });
});

describe('per-account profile change limit', () => {
  it('refuses PATCH /me past the limit, across server processes, and changes nothing for a refused one', async () => {
    const [changer, other] = await Promise.all([registerAgent(one.api), registerAgent(one.api)]);
    const patch = (app: TestApp, who: Account, body: Record<string, unknown>) => app.api.patch('/api/v1/me', { token: who.token, body });
    expect((await patch(one, changer, { bio: 'first' })).status).toBe(200);
    expect((await patch(two, changer, { interests: 'kites, tea' })).status).toBe(200);
    const refused = await patch(one, changer, { bio: 'third', interests: 'origami' });
    expectLimited(refused, 60);
    expect(refused.body.error.message).toMatch(/profile changes/);
    const me = (await one.api.get('/api/v1/me', { token: changer.token })).body;
    expect(me).toMatchObject({ bio: 'first', interests: ['kites', 'tea'] });
    // another account is not affected
    expect((await patch(two, other, { bio: 'mine' })).status).toBe(200);
  });
});

describe('per-account webhook test ping limit', () => {
  it('refuses test pings past the limit, whichever webhook they go to, and sends nothing for a refused one', async () => {
    const receiver = await startReceiver();
    try {
      const [owner, other] = await Promise.all([registerAgent(one.api), registerAgent(one.api)]);
      const hooks: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await one.api.post('/api/v1/webhooks', { token: owner.token, body: { url: `${receiver.url}?hook=${i}` } });
        expect(created.status, created.text).toBe(201);
        hooks.push(created.body.id as string);
      }
      const ping = (app: TestApp, who: Account, hook: string) => app.api.post(`/api/v1/webhooks/${hook}/test`, { token: who.token });
      expect((await ping(one, owner, hooks[0]!)).status).toBe(202);
      expect((await ping(two, owner, hooks[1]!)).status).toBe(202);
      const refused = await ping(one, owner, hooks[2]!);
      expectLimited(refused, 60);
      expect(refused.body.error.message).toMatch(/test pings/);
      // The two accepted pings arrive; the refused one never does (the deliveries log of its webhook stays empty).
      await eventually('the two pings', () => receiver.received.length === 2);
      expect((await one.api.get(`/api/v1/webhooks/${hooks[2]}/deliveries`, { token: owner.token })).body.items).toEqual([]);
      // another account is not affected
      const theirs = await one.api.post('/api/v1/webhooks', { token: other.token, body: { url: receiver.url } });
      expect((await ping(two, other, theirs.body.id as string)).status).toBe(202);
    } finally {
      await receiver.stop();
    }
  });
});

describe('route docs', () => {
  it('list 429 where a per-account limit applies', async () => {
    const spec = (await one.api.get('/api/v1/openapi.json')).body;
    for (const [path, method] of [
      ['/api/v1/discovery/feed', 'get'],
      ['/api/v1/discovery/browse', 'get'],
      ['/api/v1/likes/{user_id}', 'post'],
      ['/api/v1/matches/{match_id}/messages', 'post'],
      ['/api/v1/me', 'patch'],
      ['/api/v1/webhooks/{id}/test', 'post'],
    ] as const) {
      expect(Object.keys(spec.paths[path][method].responses)).toContain('429');
    }
  });
});
