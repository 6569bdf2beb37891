import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/platform/redis-server/free-port.js';

import { registerAgent } from '../support/accounts.js';
import type { JsonClient } from '../../src/clients/json-client.js';
import { ContractClient } from '../support/contract-client.js';
import { killChildren, spawnTsx } from '../support/child-process.js';
import { startRedis } from '../support/stack.js';
import { spectatorFrames, userFrames, type StreamFrame } from '../support/stream-events.js';
import { eventually } from '../support/eventually.js';
import { keys } from '../../src/platform/redis/keys.js';
import { SHARDS } from '../../src/platform/redis/key-space.js';

afterEach(killChildren);
let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
let client: Redis | undefined;
afterAll(async () => {
  client?.disconnect();
  await redis?.cleanup();
});

async function serve(redisUrl: string) {
  const port = await freePort();
  const proc = spawnTsx(['src/main.ts', 'serve'], {
    PORT: String(port),
    REDIS_URL: redisUrl,
    EVENT_SWEEP_MS: '200',
    TOKEN_SECRET: 'crash-test-secret-crash-test-secret!',
    EMBEDDED_WORKER: 'false',
  });
  await proc.waitFor(/listening on/);
  return { proc, api: await ContractClient.served(`http://127.0.0.1:${port}`) };
}

/** Outbox records of the agent pool not done yet, over every shard. */
async function outboxRecords(redis: Redis): Promise<number> {
  const counts = await Promise.all(Array.from({ length: SHARDS }, (_, shard) => redis.hlen(keys.shardOutbox('agent', shard))));
  return counts.reduce((sum, n) => sum + n, 0);
}

const messageIds = (frames: StreamFrame[]) => frames.filter((f) => f.type === 'message.created').map((f) => (f.data.id ?? f.data.message.id) as number);

describe('a server killed (SIGKILL) while messages are being sent', () => {
  it('once restarted and retried, has every acknowledged message’s event in both users’ streams exactly once', async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    const first = await serve(redis.url);
    const a = await registerAgent(first.api);
    const b = await registerAgent(first.api);
    await first.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    const matchId = (await first.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id as number;

    const acknowledged: number[] = [];
    const unanswered: Array<{ from: typeof a; key: string }> = [];
    const send = (api: JsonClient, from: typeof a, key: string) =>
      api.post(`/api/v1/matches/${matchId}/messages`, { token: from.token, headers: { 'idempotency-key': key }, body: { body: key } });
    let dead = false;
    const sender = async (from: typeof a, n: number) => {
      for (let i = 0; !dead && i < 2_000; i++) {
        const key = `${n}-${i}`;
        const res = await send(first.api, from, key).catch(() => undefined);
        if (res?.status === 201) acknowledged.push(res.body.id);
        else unanswered.push({ from, key });
      }
    };
    const senders = Array.from({ length: 8 }, (_, n) => sender(n % 2 ? a : b, n));
    await eventually('300 messages acknowledged', () => acknowledged.length >= 300, 30_000);
    first.proc.child.kill('SIGKILL');
    dead = true;
    await first.proc.exited;
    await Promise.all(senders);
    first.api.close();

    // the restarted server answers the retries of the requests the crash cut off, with the same keys
    const second = await serve(redis.url);
    for (const { from, key } of unanswered) {
      const res = await send(second.api, from, key);
      expect(res.status).toBe(201);
      acknowledged.push(res.body.id);
    }
    // A message's events are appended right after its answer, so those the kill cut off are appended by
    // the restarted server's outbox sweep: every outbox record of the pool done first.
    await eventually('outbox emptied', async () => (await outboxRecords(client!)) === 0);
    second.api.close();
    for (const frames of [await userFrames(client, 'agent', a.user_id), await userFrames(client, 'agent', b.user_id), await spectatorFrames(client)]) {
      const ids = messageIds(frames);
      expect(new Set(ids).size, 'no event twice').toBe(ids.length);
      const missing = acknowledged.filter((id) => !ids.includes(id));
      expect(missing, 'acknowledged messages without their event').toEqual([]);
    }
  }, 90_000);
});
