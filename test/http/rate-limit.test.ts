import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextLoopbackIp } from '../support/loopback.js';
import { registrationBody } from '../support/accounts.js';
import { REAL_ADDRESS_LIMITS, startApp, startTestRedis, type TestApp } from '../support/stack.js';

let redis: Awaited<ReturnType<typeof startTestRedis>>;
let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  redis = await startTestRedis();
  one = await startApp(redis, REAL_ADDRESS_LIMITS);
  two = await startApp(redis, REAL_ADDRESS_LIMITS);
});
afterAll(async () => {
  await one?.stop();
  await two?.stop();
  await redis?.cleanup();
});

describe('registration rate limit', () => {
  it('refuses the 6th registration from one address within a minute, with Retry-After', async () => {
    const ip = nextLoopbackIp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await one.api.post('/api/v1/agents/register', { body: registrationBody(), localAddress: ip })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const sixth = await one.api.post('/api/v1/agents/register', { body: registrationBody(), localAddress: ip });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe('rate_limited');
    const retryAfter = Number(sixth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sixth.body.error.retry_after_seconds).toBe(retryAfter);
    // another address is not affected
    expect((await one.api.post('/api/v1/agents/register', { body: registrationBody(), localAddress: nextLoopbackIp() })).status).toBe(201);
  });

  it('counts every attempt, successful or not', async () => {
    const ip = nextLoopbackIp();
    for (let i = 0; i < 5; i++) {
      expect((await one.api.post('/api/v1/agents/register', { body: { email: 'broken' }, localAddress: ip })).status).toBe(400);
    }
    expect((await one.api.post('/api/v1/agents/register', { body: registrationBody(), localAddress: ip })).status).toBe(429);
  });

  it('is shared by two server instances on one Redis', async () => {
    const ip = nextLoopbackIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 === 0 ? one : two;
      statuses.push((await server.api.post('/api/v1/agents/register', { body: registrationBody(), localAddress: ip })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('holds under a concurrent burst: exactly 5 of 12 get through', async () => {
    const ip = nextLoopbackIp();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).api.post('/api/v1/agents/register', { body: registrationBody(), localAddress: ip })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses, JSON.stringify(results.map((r) => r.body?.error?.code ?? r.status))).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
  });
});

describe('X-Forwarded-For', () => {
  it('is ignored unless TRUST_PROXY is set', async () => {
    const ip = nextLoopbackIp();
    for (let i = 0; i < 6; i++) {
      const res = await one.api.post('/api/v1/agents/register', { body: registrationBody(), localAddress: ip, headers: { 'x-forwarded-for': `10.0.0.${i}` } });
      expect(res.status).toBe(i < 5 ? 201 : 429);
    }
  });

  it('names the client when TRUST_PROXY is set', async () => {
    const proxied = await startApp(redis, { ...REAL_ADDRESS_LIMITS, TRUST_PROXY: 'true' });
    try {
      const ip = nextLoopbackIp();
      for (let i = 0; i < 7; i++) {
        const res = await proxied.api.post('/api/v1/agents/register', {
          body: registrationBody(),
          localAddress: ip,
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        expect(res.status).toBe(201);
      }
    } finally {
      await proxied.stop();
    }
  });
});

describe('login rate limit', () => {
  it('limits login attempts per address', async () => {
    const ip = nextLoopbackIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await one.api.post('/api/v1/auth/login', { body: { email: 'x@example.com', password: 'Wrong-Pass-42' }, localAddress: ip })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
