import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { startStack } from '../support/stack.js';
import { createHook } from '../support/webhooks.js';
import { receiversPerTest, verifyStandardWebhook } from '../support/webhook-receiver.js';

// Fast retries and a timeout of a few seconds, so that a test sees a whole retry schedule in seconds while a
// receiver on a busy machine still answers in time.
const METRICS_TOKEN = 'webhook-test-metrics-token';
const SETTINGS = {
  METRICS_TOKEN,
  WEBHOOK_ALLOW_PRIVATE: true,
  WEBHOOK_RETRY_BASE_MS: 100,
  WEBHOOK_MAX_ATTEMPTS: 4,
  WEBHOOK_TIMEOUT_MS: 3_000,
  WEBHOOK_MAX_PER_ACCOUNT: 3,
};

let stack: Awaited<ReturnType<typeof startStack>>;
const receiver = receiversPerTest();
beforeAll(async () => {
  stack = await startStack(SETTINGS);
});
afterAll(async () => {
  await stack?.stop();
});

/** `from` super-likes `to`: `to` is told `like.received`. */
const superLike = async (from: Account, to: Account) =>
  expect((await stack.api.post(`/api/v1/likes/${to.user_id}?kind=super_like`, { token: from.token })).status).toBe(200);

async function matchOf(a: Account, b: Account): Promise<number> {
  await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  const res = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
  expect(res.body.matched, res.text).toBe(true);
  return res.body.match.id as number;
}

const deliveries = async (account: Account, hookId: string) => {
  const res = await stack.api.get(`/api/v1/webhooks/${hookId}/deliveries`, { token: account.token });
  expect(res.status, res.text).toBe(200);
  return res.body.items as Array<{
    event_id: string;
    outcome: string;
    status: number | null;
    error: string | null;
    at: string;
    next_retry_at: string | null;
    attempt: number;
    latency_ms: number;
  }>;
};

describe('webhook endpoints', () => {
  it('create (secret shown once), read, list, change, delete; a cap per account; bad input is a 400', async () => {
    const ada = await registerAgent(stack.api);
    const created = await createHook(stack.api, ada, 'http://127.0.0.1:9/a', { event_types: ['match.created', 'message.created'] });
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/a', event_types: ['match.created', 'message.created'], enabled: true });
    expect(created.id).toMatch(/^wh_[0-9a-f]{24}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const read = await stack.api.get(`/api/v1/webhooks/${created.id}`, { token: ada.token });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body).toMatchObject({ id: created.id, enabled: true, disabled_reason: null });

    const every = await createHook(stack.api, ada, 'https://example.com/hooks');
    expect(every.event_types).toEqual(['match.created', 'message.created', 'match.ended', 'like.received']);
    await createHook(stack.api, ada, 'http://127.0.0.1:9/c');
    const fourth = await stack.api.post('/api/v1/webhooks', { token: ada.token, body: { url: 'http://127.0.0.1:9/d' } });
    expect(fourth.status).toBe(400);
    expect(fourth.body.error.message).toMatch(/3 webhooks/);

    const listed = await stack.api.get('/api/v1/webhooks', { token: ada.token });
    expect(listed.body.items.map((h: { id: string }) => h.id)).toContain(created.id);
    expect(listed.body.items).toHaveLength(3);

    const changed = await stack.api.patch(`/api/v1/webhooks/${created.id}`, { token: ada.token, body: { enabled: false, event_types: ['like.received'] } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ enabled: false, event_types: ['like.received'], disabled_reason: 'disabled by its owner' });

    for (const body of [
      { url: 'ftp://example.com/x' },
      { url: 'not a url' },
      { url: 'http://u:p@example.com/' },
      { url: 'https://example.com', event_types: ['nope'] },
      { url: 'https://example.com', event_types: [] },
      { url: 'https://example.com', extra: 1 },
    ]) {
      const res = await stack.api.post('/api/v1/webhooks', { token: ada.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await stack.api.patch(`/api/v1/webhooks/${created.id}`, { token: ada.token, body: { enabled: 'yes' } })).status).toBe(400);

    expect((await stack.api.delete(`/api/v1/webhooks/${created.id}`, { token: ada.token })).status).toBe(204);
    expect((await stack.api.get(`/api/v1/webhooks/${created.id}`, { token: ada.token })).status).toBe(404);
    expect((await stack.api.delete(`/api/v1/webhooks/${created.id}`, { token: ada.token })).status).toBe(404);
    expect((await stack.api.get('/api/v1/webhooks/../../x', { token: ada.token })).status).toBe(404);
    expect((await stack.api.get('/api/v1/webhooks', {})).status).toBe(401);
  });
});

describe('webhook deliveries', () => {
  it('POST the socket frame with the same event id, signed as Standard Webhooks verifies', async () => {
    const [ada, bo] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    const r = await receiver();
    const hook = await createHook(stack.api, bo, r.url);
    const socket = await EventSocket.open(stack.baseUrl, '/api/v1/ws', { token: bo.token });
    await superLike(ada, bo);
    const onSocket = await socket.waitForFrame((f) => f.type === 'like.received');
    socket.ws.close();
    const [delivery] = await eventually('the delivery', () => r.received.length === 1 && r.received);

    expect(JSON.parse(delivery!.body)).toEqual(onSocket);
    expect(delivery!.headers['webhook-id']).toBe(onSocket.id);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(verifyStandardWebhook(hook.secret, delivery!)).toBe(true);
    // Any change to the body, the id or the timestamp, or another secret, fails verification.
    expect(verifyStandardWebhook(hook.secret, { ...delivery!, body: delivery!.body.replace('like.received', 'like.receivee') })).toBe(false);
    expect(verifyStandardWebhook(hook.secret, { ...delivery!, headers: { ...delivery!.headers, 'webhook-id': '1-0' } })).toBe(false);
    expect(verifyStandardWebhook((await createHook(stack.api, ada, r.url)).secret, delivery!)).toBe(false);

    // The few lines /skill.md shows, run as they are, verify the same delivery.
    const guide = (await stack.api.get('/skill.md')).text;
    const snippet = /```js\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf('## Webhooks')))![1]!.replace(/^import .*\n/, '');
    type Verify = (secret: string, headers: Record<string, string>, body: string) => boolean;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the snippet of the guide as an agent pasting it would
    const guideVerify = new Function('createHmac', 'timingSafeEqual', `${snippet}; return verify;`)(createHmac, timingSafeEqual) as Verify;
    expect(guideVerify(hook.secret, delivery!.headers, delivery!.body)).toBe(true);
    expect(guideVerify(hook.secret, delivery!.headers, `${delivery!.body} `)).toBe(false);

    const [attempt] = await eventually('the logged attempt', async () => (await deliveries(bo, hook.id)).length === 1 && deliveries(bo, hook.id));
    expect(attempt).toMatchObject({
      event_id: onSocket.id,
      event_type: 'like.received',
      attempt: 1,
      outcome: 'delivered',
      status: 200,
      error: null,
      next_retry_at: null,
    });
  });

  it('retries after 500s and after a timeout, with the same webhook-id, until a 2xx', async () => {
    const [ada, bo] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    // The second attempt is never answered: only the sender's timeout (3 s here) can end it.
    const r = await receiver((_, n) => (n === 0 ? { status: 500 } : n === 1 ? { hang: true } : n === 2 ? { status: 503 } : { status: 204 }));
    const hook = await createHook(stack.api, bo, r.url);
    await superLike(ada, bo);
    await eventually('four attempts', () => r.received.length >= 4);
    // A later event (the marker) comes after every attempt of the first: the webhook delivers in order.
    await superLike(await registerAgent(stack.api), bo);
    await eventually('the marker', () => r.received.some((d) => d.headers['webhook-id'] !== r.received[0]!.headers['webhook-id']));
    expect(r.received).toHaveLength(5);
    expect(new Set(r.received.slice(0, 4).map((d) => d.headers['webhook-id'])).size).toBe(1);
    for (const d of r.received) expect(verifyStandardWebhook(hook.secret, d)).toBe(true);

    const log = await eventually('five logged attempts', async () => {
      const items = await deliveries(bo, hook.id);
      return items.length === 5 && items.slice(1);
    });
    expect(log.map((a) => [a.attempt, a.outcome, a.status])).toEqual([
      [4, 'delivered', 204],
      [3, 'failed', 503],
      [2, 'failed', null],
      [1, 'failed', 500],
    ]);
    expect(log[2]!.error).toMatch(/timeout/);
    // Ended by the timeout, not by an answer that never comes: far below any wait for one.
    expect(log[2]!.latency_ms).toBeLessThan(10 * SETTINGS.WEBHOOK_TIMEOUT_MS);
    for (const failed of log.slice(1)) expect(Date.parse(failed.next_retry_at!)).toBeGreaterThan(Date.parse(log[3]!.next_retry_at!) - 1);
    // Back-off doubles: the n-th retry waits base × 2^(n-1), ±20 %. Read from what the service logged (when
    // it failed, when it retries), not from arrival times, which a busy machine stretches.
    const delays = log
      .slice(1)
      .reverse()
      .map((a) => Date.parse(a.next_retry_at!) - Date.parse(a.at));
    delays.forEach((delay, n) => expect(delay, `retry ${n + 1}`).toBeGreaterThanOrEqual(Math.floor(0.8 * SETTINGS.WEBHOOK_RETRY_BASE_MS * 2 ** n)));
    expect(delays[2]!).toBeGreaterThan(delays[0]!);
    expect((await stack.api.get(`/api/v1/webhooks/${hook.id}`, { token: bo.token })).body.enabled).toBe(true);
  });

  it('a 410 disables the webhook at once and the account is told with a webhook.disabled event; PATCH enabled resumes', async () => {
    const [ada, bo, cy] = [await registerAgent(stack.api), await registerAgent(stack.api), await registerAgent(stack.api)];
    const r = await receiver(() => ({ status: 410 }));
    const hook = await createHook(stack.api, bo, r.url);
    const socket = await EventSocket.open(stack.baseUrl, '/api/v1/ws', { token: bo.token });
    await superLike(ada, bo);
    const told = await socket.waitForFrame((f) => f.type === 'webhook.disabled');
    expect(told.data).toMatchObject({ webhook_id: hook.id, url: r.url, reason: expect.stringMatching(/410/) });
    const after = await stack.api.get(`/api/v1/webhooks/${hook.id}`, { token: bo.token });
    expect(after.body).toMatchObject({ enabled: false, disabled_reason: expect.stringMatching(/410/) });
    expect(r.received).toHaveLength(1);

    // Nothing more is sent while disabled; re-enabled, delivery resumes with the oldest event not delivered.
    await superLike(cy, bo);
    r.answerWith(() => ({ status: 200 }));
    const reenabledAt = Date.now();
    expect((await stack.api.patch(`/api/v1/webhooks/${hook.id}`, { token: bo.token, body: { enabled: true } })).body).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
    await eventually('both events delivered', () => r.received.length === 3);
    expect(r.received.map((d) => d.frame.type)).toEqual(['like.received', 'like.received', 'like.received']);
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    expect(r.received[2]!.frame.id > r.received[1]!.frame.id).toBe(true);
    expect(r.received[1]!.receivedAt).toBeGreaterThanOrEqual(reenabledAt);
    socket.ws.close();
  });

  it('a receiver failing every attempt disables the webhook after the last one (WEBHOOK_MAX_ATTEMPTS)', async () => {
    const [ada, bo] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    const r = await receiver(() => ({ status: 500 }));
    const hook = await createHook(stack.api, bo, r.url);
    await superLike(ada, bo);
    await eventually('disabled', async () => (await stack.api.get(`/api/v1/webhooks/${hook.id}`, { token: bo.token })).body.enabled === false);
    expect(r.received).toHaveLength(4);
    const replay = await EventSocket.open(stack.baseUrl, '/api/v1/ws?since=0', { token: bo.token });
    const told = await replay.waitForFrame((f) => f.type === 'webhook.disabled');
    expect(told.data.reason).toMatch(/4 attempts/);
    replay.ws.close();
    const log = await deliveries(bo, hook.id);
    expect(log[0]).toMatchObject({ attempt: 4, outcome: 'disabled', next_retry_at: null });
  });

  it('the test endpoint sends a signed webhook.ping', async () => {
    const bo = await registerAgent(stack.api);
    const r = await receiver();
    const hook = await createHook(stack.api, bo, r.url);
    const res = await stack.api.post(`/api/v1/webhooks/${hook.id}/test`, { token: bo.token });
    expect(res.status, res.text).toBe(202);
    const [ping] = await eventually('the ping', () => r.received.length === 1 && r.received);
    expect(ping!.frame).toMatchObject({ id: res.body.event_id, type: 'webhook.ping', data: { webhook_id: hook.id } });
    expect(verifyStandardWebhook(hook.secret, ping!)).toBe(true);
    await eventually('the logged ping', async () => (await deliveries(bo, hook.id))[0]?.event_id === res.body.event_id);
  });

  it('a ping that cannot connect is logged in fixed words, never with the address or port it tried', async () => {
    const bo = await registerAgent(stack.api);
    const gone = await receiver();
    await gone.stop();
    const hook = await createHook(stack.api, bo, `http://localhost:${gone.port}/hooks`);
    const res = await stack.api.post(`/api/v1/webhooks/${hook.id}/test`, { token: bo.token });
    expect(res.status, res.text).toBe(202);
    const [attempt] = await eventually('the logged ping', async () => {
      const log = await deliveries(bo, hook.id);
      return log[0]?.event_id === res.body.event_id && log;
    });
    expect(attempt).toMatchObject({ outcome: 'failed', status: null, error: 'could not connect to the receiver' });
  });

  it('a rotated secret signs at once, the previous one keeps signing during the overlap', async () => {
    const bo = await registerAgent(stack.api);
    const r = await receiver();
    const hook = await createHook(stack.api, bo, r.url);
    const rotated = await stack.api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`, { token: bo.token });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    await stack.api.post(`/api/v1/webhooks/${hook.id}/test`, { token: bo.token });
    const [ping] = await eventually('the ping', () => r.received.length === 1 && r.received);
    expect(ping!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(rotated.body.secret, ping!)).toBe(true);
    expect(verifyStandardWebhook(hook.secret, ping!)).toBe(true);
  });

  it('counts deliveries by outcome in the metrics', async () => {
    const res = await stack.api.get('/metrics', { token: METRICS_TOKEN });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(res.text).toMatch(/webhook_deliveries_total\{outcome="failed"\} [1-9]/);
    expect(res.text).toMatch(/webhook_deliveries_total\{outcome="disabled_gone"\} [1-9]/);
  });
});

describe('webhook isolation', () => {
  it("an account's webhook gets only its own events, in either pool; another account cannot see or change it", async () => {
    const [ada, bo] = [await registerAgent(stack.api), await registerAgent(stack.api)];
    const [mia, max] = [await registerMember(stack.api), await registerMember(stack.api)];
    const [forAda, forBo, forMia] = [await receiver(), await receiver(), await receiver()];
    const adaHook = await createHook(stack.api, ada, forAda.url);
    await createHook(stack.api, bo, forBo.url);
    await createHook(stack.api, mia, forMia.url);

    const matchId = await matchOf(ada, bo);
    await superLike(max, mia);
    await eventually('each told its own events', () => forAda.received.length === 1 && forBo.received.length === 1 && forMia.received.length === 1);
    expect(forAda.received[0]!.frame).toMatchObject({ type: 'match.created', data: { id: matchId, user: { id: bo.user_id } } });
    expect(forBo.received[0]!.frame).toMatchObject({ type: 'match.created', data: { id: matchId, user: { id: ada.user_id } } });
    expect(forMia.received[0]!.frame.type).toBe('like.received');
    // A marker event for each: what came before it is all each webhook was given.
    const [agentMarker, memberMarker] = [await registerAgent(stack.api), await registerMember(stack.api)];
    await Promise.all([superLike(agentMarker, ada), superLike(agentMarker, bo), superLike(memberMarker, mia)]);
    await eventually('the markers', () => [forAda, forBo, forMia].every((r) => r.received.length >= 2));
    expect([forAda, forBo, forMia].map((r) => r.received.map((d) => d.frame.type))).toEqual([
      ['match.created', 'like.received'],
      ['match.created', 'like.received'],
      ['like.received', 'like.received'],
    ]);

    for (const intruder of [bo, mia]) {
      expect((await stack.api.get(`/api/v1/webhooks/${adaHook.id}`, { token: intruder.token })).status).toBe(404);
      expect((await stack.api.patch(`/api/v1/webhooks/${adaHook.id}`, { token: intruder.token, body: { url: forBo.url } })).status).toBe(404);
      expect((await stack.api.get(`/api/v1/webhooks/${adaHook.id}/deliveries`, { token: intruder.token })).status).toBe(404);
      expect((await stack.api.post(`/api/v1/webhooks/${adaHook.id}/test`, { token: intruder.token })).status).toBe(404);
      expect((await stack.api.delete(`/api/v1/webhooks/${adaHook.id}`, { token: intruder.token })).status).toBe(404);
    }
    expect((await stack.api.get(`/api/v1/webhooks/${adaHook.id}`, { token: ada.token })).body.url).toBe(forAda.url);
  });
});
