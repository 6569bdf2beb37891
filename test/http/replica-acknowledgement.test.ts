import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisReplica, type RedisReplica } from '../../src/platform/redis-server/redis-replica-process.js';
import { loadConfig } from '../../src/config.js';
import { keys } from '../../src/platform/redis/keys.js';
import { register, registrationBody } from '../support/accounts.js';
import { eventually } from '../support/eventually.js';
import { startApp, startRedis, type TestApp } from '../support/stack.js';

// A Redis with one replica, and the service asking for it (REDIS_MIN_REPLICAS_ACK=1). The replica is paused
// with SIGSTOP: it still takes the replication stream into its socket buffer but confirms nothing, which
// is all a write's acknowledgement waits for.
const ACK_TIMEOUT_MS = 300;
const METRICS_TOKEN = 'replica-metrics-token';

let master: Awaited<ReturnType<typeof startRedis>>;
let replica: RedisReplica;
let replicaClient: Redis;
let server: TestApp;
let paused = false;
const pauseReplica = () => {
  process.kill(replica.pid, 'SIGSTOP');
  paused = true;
};
const resumeReplica = () => {
  if (paused) process.kill(replica.pid, 'SIGCONT');
  paused = false;
};

beforeAll(async () => {
  master = await startRedis();
  replica = await startRedisReplica(master.port);
  replicaClient = new Redis({ port: replica.port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50 });
  replicaClient.on('error', () => {});
  server = await startApp(master.url, { REDIS_MIN_REPLICAS_ACK: 1, REDIS_REPLICA_ACK_TIMEOUT_MS: ACK_TIMEOUT_MS, METRICS_TOKEN });
});

afterAll(async () => {
  resumeReplica();
  await server?.stop();
  replicaClient?.disconnect();
  await replica?.stop();
  await master?.cleanup();
});

async function matched() {
  const [a, b] = [await register(server.api, 'agent'), await register(server.api, 'agent')];
  await server.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  const res = await server.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
  expect(res.status).toBe(200);
  return { a, b, matchId: res.body.match.id as number };
}

describe('with REDIS_MIN_REPLICAS_ACK=1', () => {
  it('answers a write only once the replica holds it', async () => {
    const { a, matchId } = await matched();
    const sent = await server.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'held twice' } });
    expect(sent.status).toBe(201);
    // Read from the replica at once: the answer waited for it.
    const stored = (await replicaClient.xrange(keys.thread('agent', matchId), sent.body.id, sent.body.id)) as Array<[string, string[]]>;
    expect(stored.flatMap(([, fields]) => fields)).toContain('held twice');
  });

  it('answers 503 with Retry-After when the replica does not confirm in time, and a retry with the same Idempotency-Key gives the one outcome', async () => {
    const { a, b, matchId } = await matched();
    const [blocker, blocked] = [await register(server.api, 'agent'), await register(server.api, 'agent')];
    const headers = { 'Idempotency-Key': 'replica-behind-1' };
    pauseReplica();
    try {
      const started = performance.now();
      const refused = await server.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'one copy' }, headers });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('unavailable');
      expect(refused.body.error.message).toContain('replicas');
      expect(refused.headers['retry-after']).toBe('1');
      expect(performance.now() - started).toBeGreaterThanOrEqual(ACK_TIMEOUT_MS - 50);

      // Every acknowledged write waits alike: a registration, a like that makes a match, a block.
      const registration = await server.api.post('/api/v1/agents/register', { body: registrationBody() });
      expect(registration.status).toBe(503);
      expect((await server.api.post(`/api/v1/blocks/${blocked.user_id}`, { token: blocker.token })).status).toBe(503);
    } finally {
      resumeReplica();
    }
    await eventually('the replica in sync', async () => expect(await replicaClient.info('replication')).toContain('master_link_status:up'));
    const retried = await server.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'one copy' }, headers });
    expect(retried.status).toBe(201);
    const thread = await server.api.get(`/api/v1/matches/${matchId}/messages`, { token: b.token });
    expect(thread.body.items.filter((message: { body: string }) => message.body === 'one copy')).toHaveLength(1);
  });

  it('counts refused writes and shows the replicas and their lag in /metrics', async () => {
    const res = await server.api.get('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^redis_replica_ack_timeouts_total [1-9]/m);
    expect(res.text).toMatch(/^redis_replicas_online 1$/m);
    expect(res.text).toMatch(/^redis_replica_lag_bytes \d+$/m);
  });

  it('refuses a confirmation timeout that is not below REDIS_TIMEOUT_MS: WAIT holds its connection that long', () => {
    expect(() => loadConfig({ REDIS_MIN_REPLICAS_ACK: 1, REDIS_REPLICA_ACK_TIMEOUT_MS: 1_000, REDIS_TIMEOUT_MS: 1_000 })).toThrow(
      /REDIS_REPLICA_ACK_TIMEOUT_MS.*below REDIS_TIMEOUT_MS/,
    );
    expect(loadConfig({ REDIS_MIN_REPLICAS_ACK: 1, REDIS_REPLICA_ACK_TIMEOUT_MS: 999, REDIS_TIMEOUT_MS: 1_000 }).REDIS_MIN_REPLICAS_ACK).toBe(1);
  });
});
