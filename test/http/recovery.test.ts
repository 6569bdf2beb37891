import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registrationBody } from '../support/accounts.js';
import { startApp, startRestartableStack } from '../support/stack.js';
import { eventually } from '../support/eventually.js';

let server: Awaited<ReturnType<typeof startRestartableStack>>;
beforeAll(async () => {
  server = await startRestartableStack();
});
afterAll(() => server?.stop());

describe('when Redis goes away', () => {
  it('answers 503 unavailable, stays up, and recovers by itself', async () => {
    const agent = await registerAgent(server.api);
    await server.redis.stop();
    const down = await server.api.post('/api/v1/agents/register', { body: registrationBody() });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('unavailable');
    expect(down.headers['retry-after']).toBeTruthy();
    expect((await server.api.get('/readyz')).status).toBe(503);
    expect((await server.api.get('/healthz')).status).toBe(200);

    await server.redis.start();
    await eventually('ready again', async () => (await server.api.get('/readyz')).status === 200);
    // what was acknowledged before the outage is still there
    const me = await server.api.get('/api/v1/me', { token: agent.token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(agent.user_id);
    expect((await server.api.post('/api/v1/agents/register', { body: registrationBody() })).status).toBe(201);
  });
});

describe('graceful stop', () => {
  it('finishes in-flight requests before closing', async () => {
    const other = await startApp(server.redis.url);
    // Open the keep-alive connections first, so that every request below reaches the server.
    await Promise.all(Array.from({ length: 4 }, () => other.api.get('/healthz')));
    const pending = Array.from({ length: 4 }, () => other.api.post('/api/v1/agents/register', { body: registrationBody() }));
    while (other.app.http.inFlightCount < 4) await new Promise((r) => setImmediate(r));
    const stopping = other.app.stop();
    const results = await Promise.all(pending);
    await stopping;
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    await expect(other.api.get('/healthz')).rejects.toThrow();
    other.api.close();
  });
});
