import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { registerAgent, registrationBody, type Account } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
let agent: Account;
beforeAll(async () => {
  stack = await startStack({ PROFILE_RATE_LIMIT: 1, METRICS_TOKEN: 'operators-metrics-token' });
  agent = await registerAgent(stack.api);
});
afterAll(() => stack?.stop());

/** The error envelope every non-2xx answer carries: code, message, and details (a list, [] when no field is at fault). */
function expectEnvelope(res: { status: number; body: JsonResponse['body'] }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: expect.objectContaining({ code, message: expect.any(String), details: expect.any(Array) }) });
  for (const detail of res.body.error.details as unknown[]) expect(detail).toEqual({ field: expect.any(String), message: expect.any(String) });
}

describe('every error answer carries details', () => {
  it('401, 404, 405, 409, 413, 415 and 429 carry details: [] when no field is at fault', async () => {
    const unauthorized = await stack.api.get('/api/v1/me');
    expectEnvelope(unauthorized, 401, 'unauthorized');
    expect(unauthorized.body.error.details).toEqual([]);

    const wrongLogin = await stack.api.post('/api/v1/auth/login', { body: { email: agent.email, password: 'Wrong-Pass-42' } });
    expectEnvelope(wrongLogin, 401, 'invalid_credentials');

    const unknownUser = await stack.api.get('/api/v1/users/999999999', { token: agent.token });
    expectEnvelope(unknownUser, 404, 'not_found');
    expect(unknownUser.body.error.details).toEqual([]);
    expectEnvelope(await stack.api.get('/api/v1/no-such-route', { token: agent.token }), 404, 'not_found');

    const wrongMethod = await stack.api.request('PUT', '/api/v1/me', { token: agent.token, body: {} });
    expectEnvelope(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.body.error.details).toEqual([]);

    const other = await registerAgent(stack.api);
    const headers = { 'Idempotency-Key': 'e7d0b6a2-41c9-4f8e-9a53-2c1f7b8d6e04' };
    expect((await stack.api.post(`/api/v1/likes/${other.user_id}?kind=like`, { token: agent.token, headers })).status).toBe(200);
    const reused = await stack.api.post(`/api/v1/likes/${other.user_id}?kind=pass`, { token: agent.token, headers });
    expectEnvelope(reused, 409, 'idempotency_key_reused');
    expect(reused.body.error.details).toEqual([]);

    const taken = await stack.api.post('/api/v1/agents/register', { body: registrationBody({ email: agent.email }) });
    expectEnvelope(taken, 409, 'email_taken');
    expect(taken.body.error.details).toEqual([{ field: 'email', message: 'is already registered' }]);

    const tooLarge = await stack.api.post('/api/v1/agents/register', {
      raw: JSON.stringify({ bio: 'x'.repeat(70 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(tooLarge, 413, 'payload_too_large');

    const notJson = await stack.api.post('/api/v1/agents/register', { raw: 'email=a', headers: { 'content-type': 'text/plain' } });
    expectEnvelope(notJson, 415, 'unsupported_media_type');

    const badJson = await stack.api.post('/api/v1/agents/register', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    expectEnvelope(badJson, 400, 'invalid_json');
    expect(badJson.body.error.details).toEqual([]);

    expect((await stack.api.patch('/api/v1/me', { token: agent.token, body: { bio: 'first' } })).status).toBe(200);
    const limited = await stack.api.patch('/api/v1/me', { token: agent.token, body: { bio: 'second' } });
    expectEnvelope(limited, 429, 'rate_limited');
    expect(limited.body.error).toMatchObject({ details: [], retry_after_seconds: expect.any(Number) });
  });

  it('a validation error keeps its [{field, message}] details', async () => {
    const res = await stack.api.patch('/api/v1/me', { token: (await registerAgent(stack.api)).token, body: { theme_id: 9 } });
    expectEnvelope(res, 400, 'validation_failed');
    expect(res.body.error.details).toEqual([{ field: 'theme_id', message: expect.any(String) }]);
  });
});

describe('401 carries WWW-Authenticate: Bearer', () => {
  it('a bare Bearer challenge when no token was sent, or none in the Bearer form', async () => {
    for (const headers of [{}, { authorization: 'Basic YWdlbnQ6cGFzcw==' }] as Array<Record<string, string>>) {
      const res = await stack.api.get('/api/v1/matches', { headers });
      expectEnvelope(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    const login = await stack.api.post('/api/v1/auth/login', { body: { email: agent.email, password: 'Wrong-Pass-42' } });
    expect(login.headers['www-authenticate']).toBe('Bearer');
  });

  it('error="invalid_token" when a token was sent but is malformed, tampered with or revoked', async () => {
    const account = await registerAgent(stack.api);
    const tampered = account.token.slice(0, -3) + (account.token.endsWith('aaa') ? 'bbb' : 'aaa');
    for (const token of ['nonsense', tampered]) {
      const res = await stack.api.get('/api/v1/me', { token });
      expectEnvelope(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
    expect((await stack.api.post('/api/v1/auth/logout', { token: account.token })).status).toBe(204);
    const revoked = await stack.api.get('/api/v1/me', { token: account.token });
    expectEnvelope(revoked, 401, 'unauthorized');
    expect(revoked.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('on the metrics route and a refused WebSocket upgrade too', async () => {
    const metrics = await stack.api.get('/metrics');
    expect(metrics.status).toBe(401);
    expect(metrics.headers['www-authenticate']).toBe('Bearer');
    const wrongMetrics = await stack.api.get('/metrics', { token: 'not-the-metrics-token' });
    expect(wrongMetrics.headers['www-authenticate']).toBe('Bearer error="invalid_token"');

    const refusal = (await EventSocket.open(stack.baseUrl, '/api/v1/ws', { token: 'nonsense' }).catch((e: unknown) => e)) as {
      status: number;
      headers: Record<string, string>;
      body: JsonResponse['body'];
    };
    expectEnvelope(refusal, 401, 'unauthorized');
    expect(refusal.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });
});
