import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishEvent } from '../support/event-publisher.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { matchedPair, sendMessage } from '../support/matched-pair.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { startApp, startStack, type TestApp } from '../support/stack.js';
import { within } from '../support/within.js';
import type { Pool } from '../../src/platform/core/pool.js';

let stack: Awaited<ReturnType<typeof startStack>>;
/** A second server process on the same Redis. */
let other: TestApp;

beforeAll(async () => {
  stack = await startStack();
  other = await startApp(stack.redis);
});
afterAll(async () => {
  await other?.stop();
  await stack?.stop();
});

const inbox = (app: TestApp, token: string, query = '') => app.api.get(`/api/v1/events${query}`, { token });
const waiting = (app: TestApp) => app.app.realtime.inbox!.waitingCount;

/** Appends `count` events to an account's stream, straight onto it (as if writes had committed them). */
async function appendEvents(pool: Pool, userId: number, count: number, from = 1) {
  for (let n = from; n < from + count; n++) {
    await publishEvent(stack.app, { type: 'match.ended', pool, recipients: [userId], dataFor: () => ({ match_id: n, ended_at: new Date().toISOString() }) });
  }
}

async function seeded(pool: Pool = 'agent'): Promise<SeededAccount> {
  return (await seedAccounts(stack.app, pool, 1))[0]!;
}

describe('GET /api/v1/events', () => {
  it('answers the frames the socket replays for the same since, and the cursor of the last', async () => {
    const { a, b, matchId } = await matchedPair(stack);
    await sendMessage(stack, a, matchId, 'Hello, jazz tonight?');
    await sendMessage(stack, b, matchId, 'Gladly.');
    const socket = await EventSocket.open(stack.baseUrl, '/api/v1/ws?since=0', { token: b.token });
    const replayed = await socket.waitFor(3);
    await socket.close();
    const res = await inbox(stack, b.token, '?since=0');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ events: replayed, next_cursor: replayed[2]!.id });
    expect(res.body.events.map((event: { type: string }) => event.type)).toEqual(['match.created', 'message.created', 'message.created']);
    // From a cursor: what came after it, as the socket replays it from there.
    const after = await inbox(stack, b.token, `?since=${replayed[0]!.id}`);
    expect(after.body).toEqual({ events: replayed.slice(1), next_cursor: replayed[2]!.id });
  });

  it('pages with next_cursor without a gap or a duplicate while events keep coming', async () => {
    const agent = await seeded();
    await appendEvents('agent', agent.user_id, 5);
    const seen: string[] = [];
    let cursor = '0';
    for (let round = 0; round < 8; round++) {
      const res = await inbox(stack, agent.token, `?since=${cursor}&limit=2`);
      expect(res.status).toBe(200);
      expect(res.body.events.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.events.map((event: { id: string }) => event.id));
      cursor = res.body.next_cursor;
      // Between pages, more events are appended.
      if (round < 4) await appendEvents('agent', agent.user_id, 1, 100 + round);
    }
    const all = (await inbox(stack, agent.token, '?since=0&limit=500')).body.events.map((event: { id: string }) => event.id);
    expect(all).toHaveLength(9);
    expect(seen).toEqual(all);
    expect(cursor).toBe(all.at(-1));
    expect((await inbox(stack, agent.token, `?since=${cursor}`)).body).toEqual({ events: [], next_cursor: cursor });
  });

  it('without since answers nothing old and a cursor at the newest event, to follow from', async () => {
    const agent = await seeded();
    expect((await inbox(stack, agent.token)).body).toEqual({ events: [], next_cursor: '0' });
    await appendEvents('agent', agent.user_id, 3);
    const ids = (await inbox(stack, agent.token, '?since=0')).body.events.map((event: { id: string }) => event.id);
    const start = await inbox(stack, agent.token);
    expect(start.body).toEqual({ events: [], next_cursor: ids[2] });
    await appendEvents('agent', agent.user_id, 1, 10);
    const next = await inbox(stack, agent.token, `?since=${start.body.next_cursor}`);
    expect(next.body.events).toMatchObject([{ type: 'match.ended', data: { match_id: 10 } }]);
  });

  it('holds a read with wait until an event comes, from a request to this process or to another one', async () => {
    const { a, b, matchId } = await matchedPair(stack);
    const cursor = (await inbox(stack, b.token)).body.next_cursor;
    const held = inbox(stack, b.token, `?since=${cursor}&wait=25`);
    await eventually('the read is held', () => waiting(stack) === 1);
    const sent = await sendMessage(stack, a, matchId, 'Are you there?');
    const res = await held;
    expect(res.status).toBe(200);
    expect(res.body.events).toMatchObject([{ type: 'message.created', data: { id: sent.id, body: 'Are you there?' } }]);
    expect(res.body.next_cursor).toBe(res.body.events[0].id);
    expect(waiting(stack)).toBe(0);

    // Held by the other process; the message is sent to this one.
    const heldElsewhere = inbox(other, b.token, `?since=${res.body.next_cursor}&wait=25`);
    await eventually('the read is held by the other process', () => waiting(other) === 1);
    const second = await sendMessage(stack, a, matchId, 'Still here?');
    const elsewhere = await heldElsewhere;
    expect(elsewhere.body.events).toMatchObject([{ type: 'message.created', data: { id: second.id } }]);
  });

  it('answers a read whose wait ends with no events and the cursor unchanged', async () => {
    const agent = await seeded();
    await appendEvents('agent', agent.user_id, 1);
    const cursor = (await inbox(stack, agent.token)).body.next_cursor;
    const res = await inbox(stack, agent.token, `?since=${cursor}&wait=1`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ events: [], next_cursor: cursor });
    // since=0 on an empty stream keeps "0".
    const empty = await seeded();
    expect((await inbox(stack, empty.token, '?since=0&wait=1')).body).toEqual({ events: [], next_cursor: '0' });
  });

  it('refuses a bad since, limit or wait with a 400 naming each, since worded as the socket words it', async () => {
    const agent = await seeded();
    type Refusal = { status: number; body?: { error: { details: Array<{ message: string }> } } };
    const socketRefusal = await EventSocket.open(stack.baseUrl, '/api/v1/ws?since=yesterday', { token: agent.token }).then(
      (): Refusal => ({ status: 101 }),
      (error: Refusal) => error,
    );
    expect(socketRefusal.status).toBe(400);
    const badSince = await inbox(stack, agent.token, '?since=yesterday');
    expect(badSince.status).toBe(400);
    expect(badSince.body).toEqual(socketRefusal.body);
    const all = await inbox(stack, agent.token, '?since=1-x&limit=501&wait=31');
    expect(all.status).toBe(400);
    expect(all.body.error).toMatchObject({ code: 'validation_failed' });
    expect(all.body.error.details).toEqual([
      { field: 'since', message: socketRefusal.body!.error.details[0]!.message },
      { field: 'limit', message: 'must be a whole number from 1 to 500' },
      { field: 'wait', message: 'must be a whole number from 0 to 30' },
    ]);
    for (const query of ['?limit=0', '?limit=ten', '?wait=-1', '?wait=1.5', '?since=0&since=1-0', '?cursor=abc']) {
      const res = await inbox(stack, agent.token, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('validation_failed');
      expect(res.body.error.message, query).toMatch(/^Invalid request: /);
    }
    expect((await stack.api.get('/api/v1/events')).status).toBe(401);
  });

  it('shows members and agents their own events only', async () => {
    const [member, partner] = await seedAccounts(stack.app, 'member', 2);
    await stack.api.post(`/api/v1/likes/${partner!.user_id}?kind=like`, { token: member!.token });
    expect((await stack.api.post(`/api/v1/likes/${member!.user_id}?kind=like`, { token: partner!.token })).body.matched).toBe(true);
    const agent = await seeded();
    const memberEvents = (await inbox(stack, member!.token, '?since=0')).body.events;
    expect(memberEvents).toMatchObject([{ type: 'match.created', data: { user: { id: partner!.user_id } } }]);
    expect((await inbox(stack, agent.token, '?since=0')).body).toEqual({ events: [], next_cursor: '0' });
    // A held read of an agent is not woken by a member's event, even one of the same id.
    const held = inbox(stack, agent.token, '?since=0&wait=25');
    await eventually('the read is held', () => waiting(stack) === 1);
    await appendEvents('member', agent.user_id, 1, 1);
    await appendEvents('agent', agent.user_id, 1, 2);
    expect((await held).body.events).toMatchObject([{ type: 'match.ended', data: { match_id: 2 } }]);
  });
});

describe('GET /api/v1/events: bounds', () => {
  it('refuses a read with wait past the held reads an account may have at once: 429 with Retry-After', async () => {
    const agent = await seeded();
    const held = Array.from({ length: 4 }, () => inbox(stack, agent.token, '?wait=25'));
    await eventually('four reads held', () => waiting(stack) === 4);
    const refused = await inbox(stack, agent.token, '?wait=25');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', retry_after_seconds: expect.any(Number) });
    expect(refused.body.error.message).toMatch(/at most 4/);
    expect(Number(refused.headers['retry-after'])).toBe(refused.body.error.retry_after_seconds);
    // A read without wait is not held, so it is answered.
    expect((await inbox(stack, agent.token)).status).toBe(200);
    await appendEvents('agent', agent.user_id, 1);
    for (const res of await Promise.all(held)) expect(res.body.events).toHaveLength(1);
    expect(waiting(stack)).toBe(0);
  });

  it('counts every read against the per-account rate limit: 429 with Retry-After', async () => {
    const limited = await startApp(stack.redis, { EVENTS_RATE_LIMIT: 3 });
    try {
      const [agent] = await seedAccounts(limited.app, 'agent', 1);
      for (let n = 0; n < 3; n++) expect((await inbox(limited, agent!.token)).status).toBe(200);
      const refused = await inbox(limited, agent!.token);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.stop();
    }
  });

  it('lets go of a held read whose client leaves', async () => {
    const agent = await seeded();
    const socket: Socket = await new Promise((resolve, reject) => {
      const s = connect(stack.app.port, '127.0.0.1', () => resolve(s));
      s.on('error', reject);
    });
    socket.write(`GET /api/v1/events?wait=25 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${agent.token}\r\n\r\n`);
    await eventually('the read is held', () => waiting(stack) === 1);
    socket.destroy();
    await eventually('nothing held or in flight', () => waiting(stack) === 0 && stack.app.http.inFlightCount === 0);
  });

  it('answers held reads at once when the server stops', async () => {
    // A grace period of two minutes: a stop that waited for the held read could not pass for one that did not.
    const stopping = await startApp(stack.redis, { SHUTDOWN_GRACE_MS: 120_000 });
    const [agent] = await seedAccounts(stopping.app, 'agent', 1);
    const held = inbox(stopping, agent!.token, '?since=0&wait=30');
    await eventually('the read is held', () => waiting(stopping) === 1);
    try {
      await within(stopping.app.stop(), 20_000, 'the stop, with a held read and a grace period of 120 s');
      const res = await held;
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ events: [], next_cursor: '0' });
    } finally {
      await stopping.stop();
    }
  });
});
