import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { register, registerAgent, type Account } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { onEveryMaster, startApp, startTwoApps, type TestApp } from '../support/stack.js';
import { eventually } from '../support/eventually.js';
import { within } from '../support/within.js';
import { keys } from '../../src/platform/redis/keys.js';
import { normalizeInterests } from '../../src/features/accounts/index.js';

const ADMIN_TOKEN = 'operators-only-admin-secret';
const SUSPENDED = { code: 4403, reason: 'account suspended by the operators; do not reconnect' };
const RELAY_INTERRUPTED = { code: 1012, reason: 'live relay was interrupted; reconnect with since=<last id>' };

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;
const sockets: EventSocket[] = [];

beforeAll(async () => {
  // Spectator reads shared for 0 ms: what is read is what is stored at that moment.
  stack = await startTwoApps({ ADMIN_TOKEN, SPECTATOR_CACHE_MS: 0 });
  ({ one, two } = stack);
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await stack?.stop();
});

const admin = (server: TestApp, method: 'get' | 'post', path: string, body?: unknown) =>
  method === 'get'
    ? server.api.get(`/api/v1/admin/accounts/${path}`, { token: ADMIN_TOKEN })
    : server.api.post(`/api/v1/admin/accounts/${path}`, { token: ADMIN_TOKEN, ...(body ? { body } : {}) });
const suspend = (pool: string, id: number, body: unknown = {}) => admin(one, 'post', `${pool}/${id}/suspend`, body);
const lift = (pool: string, id: number) => admin(two, 'post', `${pool}/${id}/lift`);
const login = (server: TestApp, account: Account) => server.api.post('/api/v1/auth/login', { body: { email: account.email, password: account.password } });

function expectSuspended(res: { status: number; body: { error: { code: string; message: string } } }) {
  expect(res.status).toBe(403);
  expect(res.body.error.code).toBe('account_suspended');
  expect(res.body.error.message).toMatch(/suspended/);
}

const feedIds = async (viewer: Account) =>
  ((await one.api.get('/api/v1/discovery/feed?limit=50', { token: viewer.token })).body.items as Array<{ user: { id: number } }>).map((e) => e.user.id);
const browseIds = async (viewer: Account, query = '') =>
  ((await two.api.get(`/api/v1/discovery/browse?limit=50${query}`, { token: viewer.token })).body.items as Array<{ id: number }>).map((p) => p.id);
const spectatorMatchIds = async () => ((await one.api.get('/api/v1/spectator/matches?limit=50')).body.items as Array<{ id: number }>).map((m) => m.id);

/** A new match of two new agents: its match.created is the newest frame of the spectator stream. */
async function sentinelMatch(): Promise<number> {
  const [a, b] = [await registerAgent(one.api), await registerAgent(one.api)];
  await one.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  return (await one.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id as number;
}

/** The spectator stream replayed from its start up to the match.created of `lastMatchId`. */
async function spectatorReplayUpTo(lastMatchId: number) {
  const socket = await EventSocket.open(two.baseUrl, '/api/v1/spectator/stream?since=0');
  sockets.push(socket);
  await socket.waitForFrame((frame) => frame.type === 'match.created' && frame.data.match.id === lastMatchId);
  return socket.frames;
}

describe('suspending an account', () => {
  it('refuses its tokens at once in every process (a token issued just before too), closes its sockets and refuses its login until lifted', async () => {
    const target = await registerAgent(one.api);
    // Cached by both processes, with a socket on each; and a token issued on two and never used yet.
    for (const server of [one, two]) expect((await server.api.get('/api/v1/me', { token: target.token })).status).toBe(200);
    const onOne = await EventSocket.open(one.baseUrl, '/api/v1/ws', { token: target.token });
    const onTwo = await EventSocket.open(two.baseUrl, '/api/v1/ws', { token: target.token });
    sockets.push(onOne, onTwo);
    const fresh = (await login(two, target)).body.token as string;

    const res = await suspend('agent', target.user_id, { reason: 'spam in every thread' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pool: 'agent', id: target.user_id, suspended: true, since: expect.any(String), reason: 'spam in every thread' });

    for (const server of [one, two]) {
      for (const token of [target.token, fresh]) expectSuspended(await server.api.get('/api/v1/me', { token }));
      expectSuspended(await login(server, target));
    }
    expect(await within(Promise.all([onOne.closed, onTwo.closed]), 10_000, 'sockets of the suspended account closed')).toEqual([SUSPENDED, SUSPENDED]);
    const refusal = (await EventSocket.open(two.baseUrl, '/api/v1/ws', { token: fresh }).then(
      (socket) => sockets.push(socket) && { status: 101 },
      (error: unknown) => error,
    )) as { status: number };
    expect(refusal.status).toBe(403);

    // Suspending again keeps the first record.
    const again = await suspend('agent', target.user_id, { reason: 'another reason' });
    expect(again.body).toMatchObject({ suspended: true, since: res.body.since, reason: 'spam in every thread' });
    expect((await admin(two, 'get', `agent/${target.user_id}`)).body).toEqual(res.body);

    expect((await lift('agent', target.user_id)).body).toEqual({ pool: 'agent', id: target.user_id, suspended: false, since: null, reason: null });
    // Its old tokens stay revoked; it logs in again.
    for (const server of [one, two]) expect((await server.api.get('/api/v1/me', { token: target.token })).status).toBe(401);
    const back = await login(one, target);
    expect(back.status).toBe(200);
    for (const server of [one, two]) expect((await server.api.get('/api/v1/me', { token: back.body.token })).status).toBe(200);
    expect((await admin(one, 'get', `agent/${target.user_id}`)).body.suspended).toBe(false);
  });

  it('hides it from feeds, browse and the spectator page, refuses its likes and messages and those to it, and shows it again once lifted', async () => {
    const interest = `suspension-${randomUUID().slice(0, 8)}`;
    const target = await registerAgent(one.api, { interests: interest });
    const viewer = await registerAgent(one.api, { interests: interest });
    const partner = await registerAgent(one.api, { interests: interest });
    await one.api.post(`/api/v1/likes/${partner.user_id}?kind=like`, { token: target.token });
    const matched = await one.api.post(`/api/v1/likes/${target.user_id}?kind=like`, { token: partner.token });
    const matchId = matched.body.match.id as number;
    expect((await one.api.post(`/api/v1/matches/${matchId}/messages`, { token: partner.token, body: { body: 'hello there' } })).status).toBe(201);
    // Ranked now, so the viewer's ranked feed holds the target.
    expect(await feedIds(viewer)).toContain(target.user_id);
    expect(await browseIds(viewer)).toContain(target.user_id);
    expect(await browseIds(viewer, `&interests=${interest}`)).toContain(target.user_id);
    expect(await spectatorMatchIds()).toContain(matchId);

    expect((await suspend('agent', target.user_id)).body).toMatchObject({ suspended: true, reason: null });

    expect(await feedIds(viewer)).not.toContain(target.user_id);
    expect(await browseIds(viewer)).not.toContain(target.user_id);
    expect(await browseIds(viewer, `&interests=${interest}`)).toEqual([partner.user_id]);
    expect(await spectatorMatchIds()).not.toContain(matchId);
    for (const path of [`matches/${matchId}`, `matches/${matchId}/messages`, `agents/${target.user_id}`])
      expect((await two.api.get(`/api/v1/spectator/${path}`)).status).toBe(404);
    expect((await one.api.get(`/api/v1/users/${target.user_id}`, { token: viewer.token })).status).toBe(404);
    // The spectator stream's replay shows neither its match nor the messages of it (a match made after them marks the replay's end).
    const replayed = await spectatorReplayUpTo(await sentinelMatch());
    expect(replayed.filter((frame) => frame.type === 'match.created' && frame.data.match.id === matchId)).toEqual([]);
    expect(replayed.filter((frame) => frame.type === 'message.created' && frame.data.message.match_id === matchId)).toEqual([]);

    expectSuspended(await two.api.post(`/api/v1/likes/${viewer.user_id}?kind=like`, { token: target.token }));
    expectSuspended(await two.api.post(`/api/v1/matches/${matchId}/messages`, { token: target.token, body: { body: 'hello?' } }));
    // To it: a like answers as for an account that is not there, a message as for a match that is not
    // there (nothing reveals the suspension); the match is kept.
    const like = await two.api.post(`/api/v1/likes/${target.user_id}?kind=like`, { token: viewer.token });
    expect(like.status).toBe(404);
    const message = await two.api.post(`/api/v1/matches/${matchId}/messages`, { token: partner.token, body: { body: 'still there?' } });
    const unknown = await two.api.post(`/api/v1/matches/${matchId + 1_000_000_000}/messages`, { token: partner.token, body: { body: 'still there?' } });
    expect(unknown.status).toBe(404);
    expect(message.status).toBe(404);
    expect(message.body).toEqual(unknown.body);

    expect((await lift('agent', target.user_id)).status).toBe(200);
    expect(await browseIds(viewer, `&interests=${interest}`)).toEqual([partner.user_id, target.user_id].sort((a, b) => b - a));
    expect(await browseIds(viewer)).toContain(target.user_id);
    expect(await feedIds(viewer)).toContain(target.user_id);
    expect(await spectatorMatchIds()).toContain(matchId);
    expect((await one.api.get(`/api/v1/users/${target.user_id}`, { token: viewer.token })).status).toBe(200);
    const again = await spectatorReplayUpTo(await sentinelMatch());
    expect(
      again.filter(
        (frame) =>
          (frame.type === 'match.created' && frame.data.match.id === matchId) || (frame.type === 'message.created' && frame.data.message.match_id === matchId),
      ),
    ).toHaveLength(2);
    expect((await two.api.post(`/api/v1/matches/${matchId}/messages`, { token: partner.token, body: { body: 'welcome back' } })).status).toBe(201);
    const thread = await two.api.get(`/api/v1/matches/${matchId}/messages`, { token: partner.token });
    expect((thread.body.items as Array<{ body: string }>).map((m) => m.body)).toEqual(['hello there', 'welcome back']);
    expect((await two.api.post(`/api/v1/likes/${target.user_id}?kind=like`, { token: viewer.token })).status).toBe(200);
  });

  it("is answered as an unknown id by a block, and counted in no feed's remaining, until lifted", async () => {
    const viewer = await registerAgent(one.api);
    const target = await registerAgent(one.api);
    const remaining = async () => (await one.api.get('/api/v1/discovery/feed?limit=1', { token: viewer.token })).body.remaining as number;
    const before = await remaining();
    const unknown = await two.api.post('/api/v1/blocks/999999999', { token: viewer.token });
    expect(unknown.status).toBe(404);

    expect((await suspend('agent', target.user_id)).status).toBe(200);
    const blocked = await two.api.post(`/api/v1/blocks/${target.user_id}`, { token: viewer.token });
    expect(blocked.status).toBe(404);
    expect(blocked.body.error).toEqual(unknown.body.error);
    expect(await remaining()).toBe(before - 1);

    expect((await lift('agent', target.user_id)).status).toBe(200);
    expect(await remaining()).toBe(before);
    expect((await two.api.post(`/api/v1/blocks/${target.user_id}`, { token: viewer.token })).status).toBe(201);
  });

  it("leaves it out of its partners' match lists and events while suspended, and shows it again once lifted", async () => {
    const [target, partner] = [await registerAgent(one.api), await registerAgent(one.api)];
    await one.api.post(`/api/v1/likes/${partner.user_id}?kind=super_like`, { token: target.token });
    const matchId = (await one.api.post(`/api/v1/likes/${target.user_id}?kind=like`, { token: partner.token })).body.match.id as number;
    const listed = async () => ((await two.api.get('/api/v1/matches', { token: partner.token })).body.items as Array<{ id: number }>).map((m) => m.id);
    const shownEvents = async () => {
      const events = (await one.api.get('/api/v1/events?since=0', { token: partner.token })).body.events as Array<{ type: string }>;
      return events.map((event) => event.type);
    };
    expect(await listed()).toEqual([matchId]);
    expect(await shownEvents()).toEqual(['like.received', 'match.created']);

    expect((await suspend('agent', target.user_id)).status).toBe(200);
    expect(await listed()).toEqual([]);
    expect((await two.api.get(`/api/v1/matches/${matchId}`, { token: partner.token })).status).toBe(404);
    // as for an account that has left: the events that show its profile are skipped
    expect(await shownEvents()).toEqual([]);

    expect((await lift('agent', target.user_id)).status).toBe(200);
    expect(await listed()).toEqual([matchId]);
    expect((await two.api.get(`/api/v1/matches/${matchId}`, { token: partner.token })).body.user.id).toBe(target.user_id);
    expect(await shownEvents()).toEqual(['like.received', 'match.created']);
  });

  it('keeps a profile change made while suspended out of browse, and files the changed profile when lifted', async () => {
    const [before, after] = [`suspension-${randomUUID().slice(0, 8)}`, `suspension-${randomUUID().slice(0, 8)}`];
    const target = await registerAgent(one.api, { interests: before });
    const viewer = await registerAgent(one.api);
    expect(await browseIds(viewer, `&interests=${before}`)).toEqual([target.user_id]);
    await suspend('agent', target.user_id);
    // A profile write already past its token check when the suspension lands, as the service makes it.
    expect((await one.app.users.update('agent', target.user_id, { interests: normalizeInterests(after) }))?.user.interests).toEqual(normalizeInterests(after));
    expect(await browseIds(viewer, `&interests=${after}`)).toEqual([]);
    expect(await browseIds(viewer)).not.toContain(target.user_id);

    await lift('agent', target.user_id);
    expect(await browseIds(viewer, `&interests=${after}`)).toEqual([target.user_id]);
    expect(await browseIds(viewer, `&interests=${before}`)).toEqual([]);
  });

  it('is honoured by a process that could not hear it announced, once its subscriber is back', async () => {
    const target = await registerAgent(one.api);
    expect((await one.api.get('/api/v1/me', { token: target.token })).status).toBe(200);
    const socket = await EventSocket.open(one.baseUrl, '/api/v1/ws', { token: target.token });
    sockets.push(socket);
    const client = stack.redis.client();
    try {
      // Every subscriber connection is cut; the suspension is announced before one can subscribe again.
      await onEveryMaster(client, (node) => node.call('CLIENT', 'KILL', 'TYPE', 'pubsub'));
      expect((await admin(two, 'post', `agent/${target.user_id}/suspend`, {})).status).toBe(200);
    } finally {
      client.disconnect();
    }
    // Closed by the re-check after the reconnect (4403), or, when one's subscriber is back before the
    // suspension has been made, by the restored relay asking every socket to resume (1012), whose resume is refused below.
    expect([SUSPENDED, RELAY_INTERRUPTED]).toContainEqual(await within(socket.closed, 30_000, 'socket of the suspended account closed'));
    // (503 while the subscriber is still reconnecting)
    await eventually('the suspended account refused on one', async () => expectSuspended(await one.api.get('/api/v1/me', { token: target.token })));
    await eventually('its socket refused on one', async () => {
      const refusal = await EventSocket.open(one.baseUrl, '/api/v1/ws', { token: target.token }).catch((error: unknown) => error as { status: number });
      expect((refusal as { status: number }).status).toBe(403);
    });
  });

  it('is one step with closing a report as resolved (suspend: true), the reason naming the report', async () => {
    const [reporter, reported] = [await registerAgent(one.api), await registerAgent(one.api)];
    const filed = await one.api.post('/api/v1/reports', { token: reporter.token, body: { user_id: reported.user_id, reason: 'harassment' } });
    expect(filed.status).toBe(201);
    const close = (body: unknown) => two.api.post(`/api/v1/admin/reports/agent/${filed.body.id}/close`, { token: ADMIN_TOKEN, body });
    expect((await close({ outcome: 'dismissed', suspend: true })).status).toBe(400);
    expect((await admin(one, 'get', `agent/${reported.user_id}`)).body.suspended).toBe(false);

    expect((await close({ outcome: 'resolved', suspend: true })).status).toBe(204);
    expect((await admin(one, 'get', `agent/${reported.user_id}`)).body).toMatchObject({ suspended: true, reason: `report ${filed.body.id}: harassment` });
    expectSuspended(await one.api.get('/api/v1/me', { token: reported.token }));
    expect((await one.api.get('/api/v1/me', { token: reporter.token })).status).toBe(200);
    const open = (await one.api.get('/api/v1/admin/reports?pool=agent&limit=100', { token: ADMIN_TOKEN })).body.items as Array<{ id: number }>;
    expect(open.map((r) => r.id)).not.toContain(filed.body.id);
    expect((await close({ outcome: 'resolved', suspend: true })).status).toBe(404);
  });

  it('touches only the pool named: suspending member/<id> leaves the agent of the same id alone', async () => {
    const agent = await registerAgent(one.api);
    // Each pool counts its own ids: the member registered next takes the agent's id.
    expect(Number((await one.app.redis.get(keys.userSeq('member'))) ?? 0)).toBeLessThan(agent.user_id);
    await one.app.redis.set(keys.userSeq('member'), agent.user_id - 1);
    const member = await register(one.api, 'member');
    expect(member.user_id).toBe(agent.user_id);
    expect((await suspend('member', member.user_id)).status).toBe(200);
    expectSuspended(await one.api.get('/api/v1/me', { token: member.token }));
    expect((await one.api.get('/api/v1/me', { token: agent.token })).status).toBe(200);
    expect((await admin(one, 'get', `agent/${agent.user_id}`)).body.suspended).toBe(false);
    expect((await login(two, agent)).status).toBe(200);
    expect((await lift('member', member.user_id)).body.suspended).toBe(false);
  });

  it('answers 404 for an id the pool does not hold, and 400 for a bad pool, id or reason', async () => {
    for (const path of ['agent/999999', 'agent/999999/suspend', 'agent/999999/lift']) {
      const res = path.endsWith('999999') ? await admin(one, 'get', path) : await admin(one, 'post', path, {});
      expect(res.status, path).toBe(404);
    }
    const target = await registerAgent(one.api);
    expect((await admin(one, 'get', `robots/${target.user_id}`)).status).toBe(400);
    expect((await admin(one, 'get', 'agent/zero')).status).toBe(400);
    expect((await suspend('agent', target.user_id, { reason: 'x'.repeat(501) })).status).toBe(400);
    expect((await suspend('agent', target.user_id, { note: 'unknown field' })).status).toBe(400);
    expect((await admin(one, 'get', `agent/${target.user_id}`)).body.suspended).toBe(false);
  });
});

describe('the suspension routes without ADMIN_TOKEN', () => {
  it('are absent (404) when the setting is unset, and without the token or with another one', async () => {
    const target = await registerAgent(one.api);
    const unset = await startApp(stack.redis);
    try {
      const routes = [`agent/${target.user_id}`, `agent/${target.user_id}/suspend`, `agent/${target.user_id}/lift`];
      for (const [server, token] of [
        [unset, ADMIN_TOKEN],
        [one, undefined],
        [one, 'not-the-admin-token'],
        [one, target.token],
      ] as const) {
        for (const path of routes) {
          const url = `/api/v1/admin/accounts/${path}`;
          const res = path.includes('/s') || path.endsWith('lift') ? await server.api.post(url, { token, body: {} }) : await server.api.get(url, { token });
          expect(res.status, `${path} ${token}`).toBe(404);
          expect(res.body.error.code).toBe('not_found');
        }
      }
      expect((await one.api.get('/api/v1/me', { token: target.token })).status).toBe(200);
      const documented = Object.keys((await unset.api.get('/api/v1/openapi.json')).body.paths);
      expect(documented.some((path) => path.startsWith('/api/v1/admin/accounts'))).toBe(false);
      const doc = (await one.api.get('/api/v1/openapi.json')).body;
      expect(Object.keys(doc.paths).some((path) => path.startsWith('/api/v1/admin'))).toBe(false);
      const adminDoc = (await one.api.get('/api/v1/admin/openapi.json', { token: ADMIN_TOKEN })).body;
      expect(Object.keys(adminDoc.paths)).toContain('/api/v1/admin/accounts/{pool}/{id}/suspend');
      const validator = new Validator();
      expect((await validator.validate(structuredClone(adminDoc))).errors ?? []).toEqual([]);
      for (const [path, method] of [
        ['/api/v1/me', 'get'],
        ['/api/v1/auth/login', 'post'],
        ['/api/v1/ws', 'get'],
      ] as const) {
        expect(doc.paths[path][method].responses['403'].description, path).toMatch(/account_suspended/);
      }
    } finally {
      await unset.stop();
    }
  });
});
