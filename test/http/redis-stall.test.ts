import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { registerAgent } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { startApp, startRedis, type TestApp } from '../support/stack.js';
import { eventually } from '../support/eventually.js';

// A connected Redis that stops answering: the server process is stopped with SIGSTOP (the kernel still
// accepts connections for it) and resumed with SIGCONT.
let redis: Awaited<ReturnType<typeof startRedis>>;
let server: TestApp;
let paused = false;
const pause = () => {
  process.kill(redis.pid!, 'SIGSTOP');
  paused = true;
};
const resume = () => {
  if (paused) process.kill(redis.pid!, 'SIGCONT');
  paused = false;
};

beforeAll(async () => {
  redis = await startRedis();
  server = await startApp(redis.url, { REDIS_TIMEOUT_MS: STALL_TIMEOUT_MS });
});
afterAll(async () => {
  resume();
  await server?.stop();
  await redis?.cleanup();
});

/**
 * The stall is detected after REDIS_TIMEOUT_MS (1 s here) without an answer, so a request answers 503 after
 * about a second (docs/failure-behaviour.md, "Redis stalls or fills up"). Without detection it would wait for Redis, which
 * stays paused until every check is done: it would not answer at all. The bound is far from both, so a
 * busy machine cannot blur them.
 */
const STALL_TIMEOUT_MS = 1_000;
const ANSWERED_WHILE_PAUSED_MS = 10 * STALL_TIMEOUT_MS;

type Outcome = { name: string; status: number; code?: string; retryAfter?: unknown; ms: number };

async function timed(name: string, call: () => Promise<JsonResponse>): Promise<Outcome> {
  const started = Date.now();
  const res = await call();
  return { name, status: res.status, code: res.body?.error?.code, retryAfter: res.headers['retry-after'], ms: Date.now() - started };
}

async function timedUpgrade(name: string, token: string): Promise<Outcome> {
  const started = Date.now();
  const outcome = await EventSocket.open(server.baseUrl, '/api/v1/ws', { token }).then(
    (socket): { status: number; body?: { error?: { code?: string } } | null } => {
      socket.ws.terminate();
      return { status: 101 };
    },
    (error: { status: number; body: { error?: { code?: string } } | null }) => error,
  );
  return { name, status: outcome.status, code: outcome.body?.error?.code, retryAfter: 'n/a', ms: Date.now() - started };
}

describe('when Redis is connected but does not answer', () => {
  it('answers 503 unavailable while Redis is paused, everywhere, and recovers by itself when Redis resumes', async () => {
    const { api } = server;
    const [a, b, c] = [await registerAgent(api), await registerAgent(api), await registerAgent(api)];
    expect((await api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token })).status).toBe(200);
    const liked = await api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
    const matchId = liked.body.match.id as number;
    expect((await api.get('/api/v1/me', { token: b.token })).status).toBe(200);
    const watcher = await EventSocket.open(server.baseUrl, '/api/v1/ws', { token: b.token });

    pause();
    const checks = (round: number) => [
      () => timed('GET /me', () => api.get('/api/v1/me', { token: a.token })),
      // c's token was never checked yet: its first check reads the revocation list
      () => timed('GET /me, new token', () => api.get('/api/v1/me', { token: c.token })),
      () => timed('feed', () => api.get('/api/v1/discovery/feed', { token: a.token })),
      () => timed('like', () => api.post(`/api/v1/likes/${c.user_id}?kind=like`, { token: a.token })),
      () => timed('message', () => api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: `paused ${round}` } })),
      () => timed('readyz', () => api.get('/readyz')),
      () => timedUpgrade('websocket', a.token),
    ];
    // All at once (the first ones to reach Redis find it stalled), then one by one.
    const burst = await Promise.all(checks(1).map((check) => check()));
    const oneByOne: Outcome[] = [];
    for (const check of checks(2)) oneByOne.push(await check());
    for (const outcome of [...burst, ...oneByOne]) {
      expect(outcome, outcome.name).toMatchObject({ status: 503, code: 'unavailable' });
      expect(outcome.retryAfter, outcome.name).toBeTruthy();
      expect(outcome.ms, outcome.name).toBeLessThan(ANSWERED_WHILE_PAUSED_MS);
    }

    resume();
    await eventually('ready again', async () => expect((await api.get('/readyz')).status).toBe(200));
    expect((await api.get('/api/v1/me', { token: a.token })).status).toBe(200);
    expect((await api.get('/api/v1/discovery/feed', { token: a.token })).status).toBe(200);
    expect((await api.post(`/api/v1/likes/${c.user_id}?kind=like`, { token: a.token })).status).toBe(200);
    const sent = await api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'resumed' } });
    expect(sent.status).toBe(201);
    // The socket opened before the stall still hears live events: pub/sub carried on by itself.
    await watcher.waitForFrame((frame) => frame.type === 'message.created' && frame.data.id === sent.body.id);
    const socket = await EventSocket.open(server.baseUrl, '/api/v1/ws', { token: a.token });
    socket.ws.terminate();
    watcher.ws.terminate();

    // BullMQ carried on by itself too: a new account's ranking job is queued and a worker ranks its feed.
    const d = await registerAgent(api, { interests: 'chess' });
    const probe = new Redis(redis.url);
    try {
      await eventually('d ranked', async () =>
        expect(await probe.zscore(keys.rankedFeeds('agent', indexPartition(d.user_id)), String(d.user_id))).not.toBeNull(),
      );
    } finally {
      probe.disconnect();
    }
  }, 120_000);
});
