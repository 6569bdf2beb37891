import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { matchedPair } from '../support/matched-pair.js';
import { startTwoApps, type TestApp } from '../support/stack.js';
import { within } from '../support/within.js';
import { STANDING_CHANNEL } from '../../src/platform/redis/keys.js';

/**
 * An account's standing (suspended, signed out everywhere, password changed, gone) is answered the same
 * way by every process, whatever it heard, in whatever order, and whatever raced the change.
 */
const ADMIN_TOKEN = 'operators-only-admin-secret';
const NEW_PASSWORD = 'Another-Pass-77';

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;
const open: EventSocket[] = [];

beforeAll(async () => {
  stack = await startTwoApps({ ADMIN_TOKEN });
  ({ one, two } = stack);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

const me = (server: TestApp, token: string) => server.api.get('/api/v1/me', { token });
const suspend = (server: TestApp, id: number) => server.api.post(`/api/v1/admin/accounts/agent/${id}/suspend`, { token: ADMIN_TOKEN, body: {} });
const lift = (server: TestApp, id: number) => server.api.post(`/api/v1/admin/accounts/agent/${id}/lift`, { token: ADMIN_TOKEN, body: {} });
const waitingRead = (server: TestApp, token: string) => server.api.get('/api/v1/events?wait=30', { token });

describe('a token issued for a login that raced a change of standing', () => {
  it('is refused once the password changed, though the login checked the old password before the change and issued its token after it', async () => {
    const agent = await registerAgent(one.api);
    // A login on two has read the account and checked the old password; its token is not issued yet.
    const checked = await two.app.users.findForLogin('agent', agent.email);
    expect(checked?.user.id).toBe(agent.user_id);
    const changed = await one.api.post('/api/v1/auth/password', { token: agent.token, body: { current_password: agent.password, new_password: NEW_PASSWORD } });
    expect(changed.status).toBe(204);
    const late = (await two.app.tokens.issue(agent.user_id, 'agent', checked!.epoch)).token;
    for (const server of [one, two]) {
      const res = await me(server, late);
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/revoked/);
    }
    // The token that made the change keeps working, and so does a login with the new password.
    expect((await me(two, agent.token)).status).toBe(200);
    const fresh = await two.api.post('/api/v1/auth/login', { body: { email: agent.email, password: NEW_PASSWORD } });
    expect((await me(one, fresh.body.token)).status).toBe(200);
  });

  it('is refused after log out everywhere, though its login had checked the password before it', async () => {
    const agent = await registerAgent(one.api);
    const checked = await two.app.users.findForLogin('agent', agent.email);
    expect((await one.api.post('/api/v1/auth/logout?all=true', { token: agent.token })).status).toBe(204);
    const late = (await two.app.tokens.issue(agent.user_id, 'agent', checked!.epoch)).token;
    for (const server of [one, two]) expect((await me(server, late)).status).toBe(401);
  });
});

describe('a suspension heard in any order', () => {
  it('is answered 403 account_suspended everywhere, though a process hears an older announcement after it', async () => {
    const agent = await registerAgent(one.api);
    for (const server of [one, two]) expect((await me(server, agent.token)).status).toBe(200);
    expect((await suspend(one, agent.user_id)).status).toBe(200);
    expect((await lift(one, agent.user_id)).status).toBe(200);
    expect((await suspend(two, agent.user_id)).status).toBe(200);
    // The lift's announcement (epoch 2) arrives again, late, after the second suspension's (epoch 3); then
    // a marker announced after it, so once both processes refuse the marker they have heard the late one.
    const marker = await registerAgent(one.api);
    await one.app.pubsub.publish(STANDING_CHANNEL, `agent ${agent.user_id} 2 active`);
    await one.app.pubsub.publish(STANDING_CHANNEL, `agent ${marker.user_id} 99 suspended`);
    for (const server of [one, two]) await expect.poll(async () => (await me(server, marker.token)).status).toBe(403);
    for (const server of [one, two]) {
      const res = await me(server, agent.token);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('account_suspended');
    }
  });
});

describe('a waiting event inbox read', () => {
  it('answers 401 the moment its token is ended by log out everywhere on another process, and delivers nothing sent after', async () => {
    const { a, b, matchId } = await matchedPair(one);
    const read = waitingRead(one, b.token);
    await expect.poll(() => one.app.realtime.inbox!.waitingCount).toBe(1);
    expect((await two.api.post('/api/v1/auth/logout?all=true', { token: b.token })).status).toBe(204);
    const res = await within(read, 10_000, 'the waiting read answered');
    const sent = await one.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'after the logout' } });
    expect(sent.status).toBe(201);
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain('after the logout');
  });

  it('answers 403 account_suspended the moment its account is suspended', async () => {
    const { b } = await matchedPair(one);
    const read = waitingRead(two, b.token);
    await expect.poll(() => two.app.realtime.inbox!.waitingCount).toBe(1);
    expect((await suspend(one, b.user_id)).status).toBe(200);
    const res = await within(read, 10_000, 'the waiting read answered');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('account_suspended');
  });
});

describe('a socket whose account changes standing', () => {
  it('closes with 4403 when the account is suspended and 4003 after log out everywhere', async () => {
    const suspended = await registerAgent(one.api);
    const signedOut = await registerAgent(one.api);
    const [s1, s2] = [
      await EventSocket.open(two.baseUrl, '/api/v1/ws', { token: suspended.token }),
      await EventSocket.open(two.baseUrl, '/api/v1/ws', { token: signedOut.token }),
    ];
    open.push(s1, s2);
    expect((await suspend(one, suspended.user_id)).status).toBe(200);
    expect((await one.api.post('/api/v1/auth/logout?all=true', { token: signedOut.token })).status).toBe(204);
    expect(await within(s1.closed, 10_000, 'socket of the suspended account closed')).toEqual({
      code: 4403,
      reason: 'account suspended by the operators; do not reconnect',
    });
    expect(await within(s2.closed, 10_000, 'socket of the signed-out account closed')).toEqual({ code: 4003, reason: 'token revoked; log in again' });
  });
});
