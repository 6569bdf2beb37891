import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { startTwoApps, type TestApp } from '../support/stack.js';
import { within } from '../support/within.js';

const REVOKED = { code: 4003, reason: 'token revoked; log in again' };
const NEW_PASSWORD = 'Another-Pass-77';

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;
const open: EventSocket[] = [];

beforeAll(async () => {
  stack = await startTwoApps({ TOKENS_MAX_PER_ACCOUNT: 4, CREDENTIALS_RATE_LIMIT: 3 });
  ({ one, two } = stack);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

async function login(server: TestApp, email: string, password: string) {
  return server.api.post('/api/v1/auth/login', { body: { email, password } });
}

async function tokenOf(server: TestApp, account: Account, password = account.password): Promise<string> {
  const res = await login(server, account.email, password);
  expect(res.status).toBe(200);
  return res.body.token;
}

async function connect(server: TestApp, token: string) {
  const socket = await EventSocket.open(server.baseUrl, '/api/v1/ws', { token });
  open.push(socket);
  return socket;
}

const meStatus = async (server: TestApp, token: string) => (await server.api.get('/api/v1/me', { token })).status;

describe('log out everywhere', () => {
  it('revokes every token of the account on every process and closes their sockets; another account keeps its own', async () => {
    const agent = await registerAgent(one.api);
    const other = await registerAgent(one.api);
    const second = await tokenOf(two, agent);
    const third = await tokenOf(one, agent);
    // Every token verified (and cached) on both processes first.
    for (const server of [one, two]) for (const token of [agent.token, second, third, other.token]) expect(await meStatus(server, token)).toBe(200);
    const sockets = [await connect(one, agent.token), await connect(two, second), await connect(two, third)];
    const otherSocket = await connect(two, other.token);

    expect((await two.api.post('/api/v1/auth/logout?all=true', { token: third })).status).toBe(204);

    expect(await within(Promise.all(sockets.map((s) => s.closed)), 10_000, 'sockets of the account closed')).toEqual([REVOKED, REVOKED, REVOKED]);
    for (const server of [one, two]) for (const token of [agent.token, second, third]) expect(await meStatus(server, token)).toBe(401);
    for (const server of [one, two]) expect(await meStatus(server, other.token)).toBe(200);
    expect(otherSocket.ws.readyState).toBe(otherSocket.ws.OPEN);
    // A new login works as before.
    expect(await meStatus(one, await tokenOf(one, agent))).toBe(200);
  });

  it('without all=true only the presented token goes; a bad value is a clear 400', async () => {
    const agent = await registerAgent(one.api);
    const second = await tokenOf(one, agent);
    const bad = await one.api.post('/api/v1/auth/logout?all=yes-please', { token: agent.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/all must be true or false/);
    expect((await one.api.post('/api/v1/auth/logout', { token: agent.token })).status).toBe(204);
    expect(await meStatus(two, agent.token)).toBe(401);
    expect(await meStatus(two, second)).toBe(200);
  });

  it('finds every token: a login beyond the cap per account revokes the oldest', async () => {
    const member = await registerMember(one.api);
    const tokens = [member.token];
    for (let i = 0; i < 4; i++) tokens.push(await tokenOf(i % 2 ? one : two, member));
    // Five logins, a cap of four: the first token was revoked when the fifth came.
    expect(await meStatus(two, tokens[0]!)).toBe(401);
    for (const token of tokens.slice(1)) expect(await meStatus(one, token)).toBe(200);
    expect((await one.api.post('/api/v1/auth/logout?all=true', { token: tokens[4]! })).status).toBe(204);
    for (const token of tokens) for (const server of [one, two]) expect(await meStatus(server, token)).toBe(401);
  });
});

describe('password change', () => {
  it("changes the password, keeps the caller's token and revokes every other token of the account in every process", async () => {
    const agent = await registerAgent(one.api);
    const second = await tokenOf(two, agent);
    for (const server of [one, two]) for (const token of [agent.token, second]) expect(await meStatus(server, token)).toBe(200);
    const otherSocket = await connect(one, second);
    const ownSocket = await connect(two, agent.token);

    const res = await one.api.post('/api/v1/auth/password', { token: agent.token, body: { current_password: agent.password, new_password: NEW_PASSWORD } });
    expect(res.status).toBe(204);

    expect(await within(otherSocket.closed, 10_000, 'socket of the other token closed')).toEqual(REVOKED);
    for (const server of [one, two]) {
      expect(await meStatus(server, second)).toBe(401);
      expect(await meStatus(server, agent.token)).toBe(200);
    }
    expect(ownSocket.ws.readyState).toBe(ownSocket.ws.OPEN);
    const old = await login(two, agent.email, agent.password);
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('invalid_credentials');
    expect(await meStatus(one, await tokenOf(one, agent, NEW_PASSWORD))).toBe(200);
  });

  it('refuses a wrong current password (nothing changes) and a new password that breaks the rules, in our words', async () => {
    const agent = await registerAgent(one.api);
    const second = await tokenOf(one, agent);
    const wrong = await one.api.post('/api/v1/auth/password', { token: agent.token, body: { current_password: 'Not-The-Pass-1', new_password: NEW_PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'invalid_credentials', message: expect.stringMatching(/not this account's current password/) });
    const weak = await one.api.post('/api/v1/auth/password', { token: agent.token, body: { current_password: agent.password, new_password: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body.error.details).toEqual([{ field: 'new_password', message: expect.stringMatching(/too short/) }]);
    const missing = await one.api.post('/api/v1/auth/password', { token: agent.token, body: { new_password: NEW_PASSWORD } });
    expect(missing.status).toBe(400);
    // Nothing changed: the old password and every token still work.
    expect((await login(two, agent.email, agent.password)).status).toBe(200);
    expect(await meStatus(two, second)).toBe(200);
  });

  it('counts every attempt against a limit per account, with Retry-After', async () => {
    const member = await registerMember(one.api);
    for (let i = 0; i < 3; i++) {
      const res = await one.api.post('/api/v1/auth/password', {
        token: member.token,
        body: { current_password: `Guess-${i}-Pass!`, new_password: NEW_PASSWORD },
      });
      expect(res.status).toBe(401);
    }
    const limited = await two.api.post('/api/v1/auth/password', {
      token: member.token,
      body: { current_password: member.password, new_password: NEW_PASSWORD },
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(one, member.email, member.password)).status).toBe(200);
  });

  it("touches nothing of the other pool: an agent's change leaves a member's tokens alone", async () => {
    const agent = await registerAgent(one.api);
    const member = await registerMember(one.api);
    // Same ids in both pools are distinct accounts: each pool has its own id sequence.
    expect((await one.api.post('/api/v1/auth/logout?all=true', { token: agent.token })).status).toBe(204);
    expect(await meStatus(two, member.token)).toBe(200);
  });
});
