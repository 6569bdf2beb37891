import { publishEvent } from '../support/event-publisher.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEvent } from '../support/event-publisher.js';
import { registerAgent } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { startTwoApps, type TestApp } from '../support/stack.js';
import { eventually } from '../support/eventually.js';
import { within } from '../support/within.js';

const RELAY_INTERRUPTED = { code: 1012, reason: 'live relay was interrupted; reconnect with since=<last id>' };
const REVOKED = { code: 4003, reason: 'token revoked; log in again' };

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let redis: typeof stack.redis;
let one: TestApp;
let two: TestApp;
const open: EventSocket[] = [];

beforeAll(async () => {
  stack = await startTwoApps();
  ({ redis, one, two } = stack);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

async function connect(server: TestApp, path: string, token: string) {
  const socket = await EventSocket.open(server.baseUrl, path, { token });
  open.push(socket);
  return socket;
}

const event = (recipient: number, n: number): TestEvent => ({ type: 'message.created', pool: 'agent', recipients: [recipient], dataFor: () => ({ n }) });

async function login(server: TestApp, email: string, password: string): Promise<string> {
  const res = await server.api.post('/api/v1/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

describe('logout closes the sockets opened with the token', () => {
  it('closes them on every process with 4003; a socket of another token of the same account stays', async () => {
    const agent = await registerAgent(one.api);
    const second = await login(two, agent.email, agent.password);
    const onOne = await connect(one, '/api/v1/ws', agent.token);
    const onTwo = await connect(two, '/api/v1/ws?since=0', agent.token);
    const otherToken = await connect(two, '/api/v1/ws', second);

    expect((await one.api.post('/api/v1/auth/logout', { token: agent.token })).status).toBe(204);
    // Only the revocation closes them (nothing else re-checks a live socket's token): the bound is generous.
    const closes = await within(Promise.all([onOne.closed, onTwo.closed]), 10_000, 'sockets of the revoked token closed');
    expect(closes).toEqual([REVOKED, REVOKED]);

    await publishEvent(one.app, event(agent.user_id, 1));
    expect((await otherToken.waitFor(1))[0]!.data).toEqual({ n: 1 });
    for (const server of [one, two]) {
      const refusal = await connect(server, '/api/v1/ws', agent.token).catch((e) => e);
      expect(refusal.status).toBe(401);
    }
  });
});

describe('a revocation announced while a process cannot hear it', () => {
  it('is honoured there once its subscriber is back: the token is refused and its sockets closed', async () => {
    const agent = await registerAgent(one.api);
    // The token is verified (and cached) on process one, and has a socket there.
    expect((await one.api.get('/api/v1/me', { token: agent.token })).status).toBe(200);
    const socket = await connect(one, '/api/v1/ws', agent.token);

    const admin = redis.client();
    try {
      // Every subscriber connection is cut; the logout on two is announced before one can resubscribe.
      await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      expect((await two.api.post('/api/v1/auth/logout', { token: agent.token })).status).toBe(204);
    } finally {
      admin.disconnect();
    }

    // Nothing uses the token on one meanwhile: the socket is closed by the re-check after the reconnect
    // (4003), or, when one's subscriber is back before the logout has been made, by the restored relay
    // asking every socket to resume (1012); either way the socket is gone and the token refused below.
    expect([REVOKED, RELAY_INTERRUPTED]).toContainEqual(await within(socket.closed, 30_000, 'socket of the revoked token closed'));
    await eventually('the revoked token refused over HTTP', async () => {
      const res = await one.api.get('/api/v1/me', { token: agent.token });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/revoked/);
    });
    // (503 while the subscriber is still reconnecting)
    await eventually('the revoked token refused', async () => {
      const refusal = await connect(one, '/api/v1/ws', agent.token).catch((e) => e);
      expect(refusal.status).toBe(401);
    });

    // Live delivery works again on one for everyone else.
    const other = await registerAgent(one.api);
    // An upgrade is answered 503 until one hears its channels again; from then on, what is published arrives.
    const live = await eventually('a socket on one', () => connect(one, '/api/v1/ws', other.token));
    await publishEvent(two.app, event(other.user_id, 2));
    expect((await live.waitFor(1))[0]!.data).toEqual({ n: 2 });
  });
});
