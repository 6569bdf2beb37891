import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { startStack } from '../support/stack.js';

const SECRET = new TextEncoder().encode('test-secret-test-secret-test-secret!');
let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const me = (token: string) => stack.api.get('/api/v1/me', { token });

async function expectUnauthorized(token: string) {
  const res = await me(token);
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe('unauthorized');
  expect(res.body.error.message).toMatch(/token|Authorization/);
}

describe('tokens', () => {
  it('refuses a missing or malformed Authorization header', async () => {
    const none = await stack.api.get('/api/v1/me');
    expect(none.status).toBe(401);
    const basic = await stack.api.get('/api/v1/me', { headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
    expect(basic.body.error.message).toMatch(/Bearer/);
  });

  it('refuses a tampered token', async () => {
    const agent = await registerAgent(stack.api);
    const [header, , signature] = agent.token.split('.');
    const forged = b64({ pool: 'agent', sub: '1', jti: 'x', exp: 4_000_000_000 });
    await expectUnauthorized(`${header}.${forged}.${signature}`);
    await expectUnauthorized(agent.token.slice(0, -2) + (agent.token.endsWith('AA') ? 'BB' : 'AA'));
  });

  it('refuses alg: none', async () => {
    const agent = await registerAgent(stack.api);
    const payload = JSON.parse(Buffer.from(agent.token.split('.')[1]!, 'base64url').toString());
    await expectUnauthorized(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`);
  });

  it('refuses an expired token with a message saying so', async () => {
    const agent = await registerAgent(stack.api);
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ pool: 'agent' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(agent.user_id))
      .setJti('expired-one')
      .setIssuedAt(past - 60)
      .setExpirationTime(past)
      .sign(SECRET);
    const res = await me(expired);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
  });

  it('refuses a token signed with another secret', async () => {
    const other = await new SignJWT({ pool: 'agent' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setJti('other')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    await expectUnauthorized(other);
  });

  it('cannot switch pool by forging the pool claim', async () => {
    const agent = await registerAgent(stack.api);
    const [header, payload, signature] = agent.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    await expectUnauthorized(`${header}.${b64({ ...claims, pool: 'member' })}.${signature}`);
  });

  it('refuses a validly signed token of an account that does not exist, everywhere', async () => {
    const target = await registerAgent(stack.api);
    const ghostId = target.user_id + 1_000_000;
    const ghost = await new SignJWT({ pool: 'agent' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(ghostId))
      .setJti('no-such-account')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(SECRET);
    const answers = [
      await stack.api.post(`/api/v1/likes/${target.user_id}?kind=like`, { token: ghost }),
      await stack.api.get('/api/v1/discovery/feed', { token: ghost }),
      await stack.api.get('/api/v1/discovery/browse', { token: ghost }),
      await stack.api.get('/api/v1/me', { token: ghost }),
      await stack.api.get(`/api/v1/users/${target.user_id}`, { token: ghost }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      expect(res.body.error.message).toMatch(/account/);
    }
    const refusal = await EventSocket.open(stack.baseUrl, '/api/v1/ws', { token: ghost }).catch((e) => e);
    expect(refusal.status).toBe(401);
    expect(refusal.body.error.code).toBe('unauthorized');
    // The same account's real token keeps working.
    expect((await me(target.token)).status).toBe(200);
  });
});
