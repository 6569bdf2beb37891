import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { startTwoApps } from '../support/stack.js';
import { startReceiver, verifyStandardWebhook } from '../support/webhook-receiver.js';

// Two servers on one Redis, each with an embedded delivery worker: two workers share the queue.
let apps: Awaited<ReturnType<typeof startTwoApps>>;
beforeAll(async () => {
  apps = await startTwoApps({ WEBHOOK_ALLOW_PRIVATE: true, WEBHOOK_RETRY_BASE_MS: 50, WEBHOOK_MAX_ATTEMPTS: 6, WEBHOOK_CONCURRENCY: 8 });
});
afterAll(async () => {
  await apps?.stop();
});

describe('webhook delivery order', () => {
  it("delivers an account's events in stream order despite retries, each answered with a 2xx once, with two workers", async () => {
    const { one, two } = apps;
    const [ada, bo] = [await registerAgent(one.api), await registerAgent(one.api)];
    // Every third request fails: each failure holds the events behind it until its retry succeeds.
    const r = await startReceiver((_, n) => ({ status: n % 3 === 1 ? 500 : 200 }));
    const created = await two.api.post('/api/v1/webhooks', { token: bo.token, body: { url: r.url } });
    expect(created.status, created.text).toBe(201);

    await one.api.post(`/api/v1/likes/${bo.user_id}?kind=like`, { token: ada.token });
    const matchId = (await two.api.post(`/api/v1/likes/${ada.user_id}?kind=like`, { token: bo.token })).body.match.id as number;
    const sent = 30;
    for (let i = 0; i < sent; i++) {
      const api = i % 2 ? one.api : two.api;
      expect((await api.post(`/api/v1/matches/${matchId}/messages`, { token: ada.token, body: { body: `message ${i}` } })).status).toBe(201);
    }

    const socket = await EventSocket.open(one.baseUrl, '/api/v1/ws?since=0', { token: bo.token });
    const told = await socket.waitFor(sent + 1);
    socket.ws.close();
    const ids = told.map((f) => f.id);
    await eventually(
      'every event answered with a 2xx',
      () => new Set(r.received.filter((_, n) => n % 3 !== 1).map((d) => d.frame.id)).size === ids.length,
      20_000,
    );
    // One more message, the marker: every delivery of the events before it came before it.
    expect((await one.api.post(`/api/v1/matches/${matchId}/messages`, { token: ada.token, body: { body: 'marker' } })).status).toBe(201);
    await eventually('the marker answered with a 2xx', () => r.received.some((d, n) => n % 3 !== 1 && d.body.includes('"marker"')), 20_000);
    const before = r.received.slice(
      0,
      r.received.findIndex((d) => d.body.includes('"marker"')),
    );

    const succeeded = before.filter((_, n) => n % 3 !== 1).map((d) => d.frame.id);
    // In order, each once: exactly the socket's events.
    expect(succeeded).toEqual(ids);
    // Every attempt of an event comes before any attempt of a later one.
    const firstSeen = before.map((d) => d.frame.id).filter((id, i, all) => all.indexOf(id) === i);
    expect(firstSeen).toEqual(ids);
    expect(r.received.every((d) => verifyStandardWebhook(created.body.secret, d))).toBe(true);
    expect(told.map((f) => f.type)).toEqual(['match.created', ...Array<string>(sent).fill('message.created')]);
    await r.stop();
  });
});
