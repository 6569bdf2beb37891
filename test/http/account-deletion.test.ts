import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { EventSocket, type Frame } from '../support/event-socket.js';
import { scanKeys } from '../support/scan-keys.js';
import { startTwoApps, type TestApp } from '../support/stack.js';
import { whereStored } from '../support/stored-values.js';
import { within } from '../support/within.js';
import { emailBucket, indexPartition } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';

const GONE = { code: 4410, reason: 'account no longer exists; register or log in again' };
const unique = Math.random().toString(36).slice(2, 10);
/** What only the leaving account ever wrote: found nowhere in Redis once it has left. */
const NAME = `Leaver ${unique}`;
const BIO = `A bio nobody else has ${unique}.`;
const SAID = `zither practice tonight ${unique}`;
const HEARD = `see you at the zither club ${unique}`;

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;
const open: EventSocket[] = [];

/** The leaving agent, its match, the others around it, and a member holding the same e-mail in its own pool. */
let a: Account;
let b: Account;
let c: Account;
let m: Account;
/** An agent that A passed and that passed A. */
let d: Account;
/** An agent A blocked, and one that blocked A. */
let e: Account;
let f: Account;
let matchId: number;

beforeAll(async () => {
  stack = await startTwoApps({ WEBHOOK_ALLOW_PRIVATE: true });
  ({ one, two } = stack);
  a = await registerAgent(one.api, { display_name: NAME, bio: BIO, interests: 'chess, jazz, zither' });
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

async function connect(server: TestApp, path: string, token?: string) {
  const socket = await EventSocket.open(server.baseUrl, path, token ? { token } : {});
  open.push(socket);
  return socket;
}

const leave = (server: TestApp, account: Account, body: unknown) => server.api.delete('/api/v1/me', { token: account.token, body });
const eventsOf = async (server: TestApp, account: Account) => {
  const res = await server.api.get('/api/v1/events?since=0&limit=100', { token: account.token });
  expect(res.status, res.text).toBe(200);
  return res.body.events as Frame[];
};
const ok = (status: number, res: { status: number; text: string }) => expect(res.status, res.text).toBe(status);

describe('DELETE /api/v1/me (leave)', () => {
  it('refuses a wrong or missing password in its own words, and erases nothing', async () => {
    const wrong = await leave(one, a, { password: 'Not-The-Password-9' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_credentials');
    expect(wrong.body.error.message).toMatch(/not this account's current password; nothing was erased/);
    const missing = await leave(one, a, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toEqual(['password']);
    ok(200, await one.api.get('/api/v1/me', { token: a.token }));
  });

  it("erases the account: its tokens and sockets end in every process, its match ends for the other side and the spectators, its super like is gone from the other's events", async () => {
    b = await registerAgent(one.api, { interests: 'jazz, zither' });
    c = await registerAgent(one.api);
    m = await registerMember(one.api, { email: a.email });
    ok(200, await one.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token }));
    const mutual = await one.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
    expect(mutual.body.matched).toBe(true);
    matchId = mutual.body.match.id;
    const thread = `/api/v1/matches/${matchId}/messages`;
    ok(201, await one.api.post(thread, { token: a.token, body: { body: SAID }, headers: { 'idempotency-key': `said-${unique}` } }));
    ok(201, await one.api.post(thread, { token: b.token, body: { body: HEARD } }));
    ok(200, await one.api.post(`/api/v1/likes/${c.user_id}?kind=super_like`, { token: a.token }));
    d = await registerAgent(one.api);
    ok(200, await one.api.post(`/api/v1/likes/${d.user_id}?kind=pass`, { token: a.token }));
    ok(200, await one.api.post(`/api/v1/likes/${a.user_id}?kind=pass`, { token: d.token }));
    e = await registerAgent(one.api);
    f = await registerAgent(one.api);
    ok(201, await one.api.post(`/api/v1/blocks/${e.user_id}`, { token: a.token }));
    ok(201, await one.api.post(`/api/v1/blocks/${a.user_id}`, { token: f.token }));
    ok(201, await one.api.post('/api/v1/webhooks', { token: a.token, body: { url: 'http://127.0.0.1:9/hooks' } }));
    expect((await eventsOf(one, c)).map((frame) => frame.type)).toContain('like.received');
    const socket = await connect(two, '/api/v1/ws', a.token);
    ok(200, await two.api.get('/api/v1/me', { token: a.token }));

    ok(204, await leave(one, a, { password: a.password }));

    expect(await within(socket.closed, 10_000, "the leaving account's socket closed")).toEqual(GONE);
    for (const server of [one, two]) {
      const refused = await server.api.get('/api/v1/me', { token: a.token });
      expect(refused.status).toBe(401);
      expect(refused.body.error.message).toBe("This token's account no longer exists; register or log in again.");
    }
    expect((await one.api.post('/api/v1/auth/login', { body: { email: a.email, password: a.password, pool: 'agent' } })).status).toBe(401);
    expect((await one.api.get(`/api/v1/users/${a.user_id}`, { token: b.token })).status).toBe(404);

    // The match ended for B exactly as an unmatch ends it; A's card is in none of B's or C's events.
    expect((await one.api.get(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(410);
    const seenByB = await eventsOf(two, b);
    expect(seenByB.map((frame) => frame.type)).toContain('match.ended');
    expect(seenByB.map((frame) => frame.type)).not.toContain('match.created');
    expect(JSON.stringify(seenByB)).not.toContain(NAME);
    expect((await eventsOf(one, c)).map((frame) => frame.type)).not.toContain('like.received');

    // The spectators see the match end, and nothing of it or of A remains to see.
    const spectator = await connect(one, '/api/v1/spectator/stream?since=0');
    await spectator.waitForFrame((frame) => frame.type === 'match.ended' && frame.data.match_id === matchId);
    const shown = JSON.stringify(spectator.frames);
    for (const text of [NAME, SAID, HEARD]) expect(shown).not.toContain(text);
    expect((await one.api.get(`/api/v1/spectator/matches/${matchId}`)).status).toBe(404);
    expect((await one.api.get(`/api/v1/spectator/agents/${a.user_id}`)).status).toBe(404);
    const listed = (await one.api.get('/api/v1/spectator/matches?limit=100')).body.items as Array<{ id: number }>;
    expect(listed.map((item) => item.id)).not.toContain(matchId);

    // The member holding the same e-mail in its own pool is untouched.
    ok(200, await one.api.post('/api/v1/auth/login', { body: { email: m.email, password: m.password, pool: 'member' } }));
  });

  it('leaves nothing of the account in Redis: no key of its own, and neither its e-mail, name, bio nor messages in any value', async () => {
    const redis = one.app.redis;
    const own = new RegExp(`^am:agent:\\{[^}]+\\}:[a-z-]+(:[a-z_]+)?:${a.user_id}(:|$)`);
    const pairs = new RegExp(`^am:agent:\\{[^}]+\\}:pair:(${a.user_id}:\\d+|\\d+:${a.user_id})$`);
    const left = (await scanKeys(redis, 'am:agent:*')).filter((key) => own.test(key) || pairs.test(key));
    // Only the Idempotency-Key records of its last day's writes, which lapse within 24 h and hold hashes and ids (docs/api.md, Leave).
    expect(left.filter((key) => !/:idem(-claim)?:/.test(key))).toEqual([]);
    for (const text of [NAME, BIO, SAID, HEARD]) expect(await whereStored(redis, text), text).toEqual({});
    // The e-mail: the member's account and its entry in the member namespace only.
    const holders = Object.keys(await whereStored(redis, a.email));
    expect(holders.every((key) => key.startsWith('am:member:') || key === keys.emails(emailBucket(a.email)))).toBe(true);
    expect(await redis.hget(keys.emails(emailBucket(a.email)), `agent:${a.email}`)).toBeNull();
    // Nor is it among the passes of the account that passed it.
    expect(await redis.zscore(keys.passes('agent', d.user_id), String(a.user_id))).toBeNull();
    expect(await redis.hget(keys.swipes('agent', d.user_id), String(a.user_id))).toBeNull();
    // Nor among the likers of the account it super liked, nor in what the ranking keeps of accounts.
    expect(await redis.zscore(keys.likers('agent', c.user_id), String(a.user_id))).toBeNull();
    const part = indexPartition(a.user_id);
    expect(await redis.hmget(keys.rankTraits('agent', part), `p:${a.user_id}`, `t:${a.user_id}`, `a:${a.user_id}`)).toEqual([null, null, null]);
    // Nor among the blocks, either way.
    for (const other of [e, f]) expect(await redis.hget(keys.hidden('agent', other.user_id), String(a.user_id))).toBeNull();
    expect(await redis.zscore(keys.blocks('agent', f.user_id), String(a.user_id))).toBeNull();
  });

  it('frees the e-mail: the same e-mail registers a new agent', async () => {
    const again = await registerAgent(two.api, { email: a.email });
    expect(again.user_id).not.toBe(a.user_id);
    ok(200, await one.api.get('/api/v1/me', { token: again.token }));
  });

  it('finishes an erasure a crash cut short: the first step alone leaves the account gone, and the sweep erases the rest, twice over harmlessly', async () => {
    const x = await registerAgent(one.api, { display_name: `Crashed ${unique}` });
    const y = await registerAgent(one.api);
    ok(200, await one.api.post(`/api/v1/likes/${y.user_id}?kind=like`, { token: x.token }));
    const mutual = await one.api.post(`/api/v1/likes/${x.user_id}?kind=like`, { token: y.token });
    ok(201, await one.api.post(`/api/v1/matches/${mutual.body.match.id}/messages`, { token: x.token, body: { body: `last words ${unique}` } }));
    // The process stops right after the first step: the account is gone, the rest of it is not yet.
    await one.app.accounts.leave({ pool: 'agent', userId: x.user_id }, x.password);
    expect((await one.api.get('/api/v1/me', { token: x.token })).status).toBe(401);
    expect((await one.api.post('/api/v1/auth/login', { body: { email: x.email, password: x.password } })).status).toBe(401);
    // Shown nowhere already (the match lists skip a match whose other side is gone), but not yet ended.
    expect((await one.api.get('/api/v1/matches', { token: y.token })).body.items).toEqual([]);
    expect(await one.app.redis.hget(keys.match('agent', mutual.body.match.id), 'ended_at')).toBeNull();

    expect(await two.app.leaving.finishInterrupted(0)).toBeGreaterThanOrEqual(1);
    expect(await two.app.leaving.finishInterrupted(0)).toBe(0);
    expect((await one.api.get(`/api/v1/matches/${mutual.body.match.id}`, { token: y.token })).status).toBe(410);
    for (const text of [`Crashed ${unique}`, `last words ${unique}`, x.email]) expect(await whereStored(one.app.redis, text), text).toEqual({});
    await registerAgent(one.api, { email: x.email });
  });

  it('counts every attempt against the credentials limit (429 with Retry-After); a member leaving never touches the agent of the same id', async () => {
    const agent = await registerAgent(one.api);
    // Each pool counts its own ids: a member with the agent's id.
    let member = await registerMember(one.api);
    for (let i = 0; i < 100 && member.user_id < agent.user_id; i++) member = await registerMember(one.api);
    expect(member.user_id).toBe(agent.user_id);
    let res = await leave(one, agent, { password: 'Not-The-Password-9' });
    for (let i = 0; i < 20 && res.status === 401; i++) res = await leave(one, agent, { password: 'Not-The-Password-9' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    ok(204, await leave(two, member, { password: member.password }));
    expect((await one.api.get('/api/v1/me', { token: member.token })).status).toBe(401);
    expect((await one.api.get('/api/v1/me', { token: agent.token })).status).toBe(200);
    expect((await one.api.get(`/api/v1/users/${agent.user_id}`, { token: b.token })).status).toBe(200);
  });
});
