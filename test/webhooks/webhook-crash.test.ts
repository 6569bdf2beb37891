import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { JsonClient } from '../../src/clients/json-client.js';
import { ContractClient } from '../support/contract-client.js';
import { freePort } from '../../src/platform/redis-server/free-port.js';
import { registerAgent, type Account } from '../support/accounts.js';
import { killChildren, spawnTsx } from '../support/child-process.js';
import { eventually } from '../support/eventually.js';
import { startApp, startTestRedis } from '../support/stack.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const HOOKS = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '100' };

let redis: Awaited<ReturnType<typeof startTestRedis>> | undefined;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  killChildren();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await redis?.cleanup();
});

async function receiver(answer: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.stop());
  return r;
}

async function matchOf(api: JsonClient, a: Account, b: Account): Promise<number> {
  await api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  return (await api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id as number;
}

describe('webhook deliveries and crashes', () => {
  it('a worker killed mid-delivery: another worker delivers the event again once the lock lapses, and the chain goes on', async () => {
    redis ??= await startTestRedis();
    // This server only queues deliveries: the workers are processes of their own (`npm run worker`).
    const server = await startApp(redis, { ...HOOKS, EMBEDDED_WORKER: false });
    cleanups.push(() => server.stop());
    const [ada, bo] = [await registerAgent(server.api), await registerAgent(server.api)];
    const r = await receiver((_, n) => (n === 0 ? { hang: true } : { status: 200 }));
    const hook = (await server.api.post('/api/v1/webhooks', { token: bo.token, body: { url: r.url } })).body as { id: string };
    // A lock that lapses soon after the kill, yet long enough that a live worker on a busy machine renews
    // it in time (every half lock): a lapse there would deliver the event a third time.
    const workerEnv = { ...redis.env, ...HOOKS, WEBHOOK_LOCK_MS: '5000', WEBHOOK_TIMEOUT_MS: '30000' };

    const first = spawnTsx(['src/main.ts', 'worker'], workerEnv);
    await first.waitFor(/worker started/);
    const matchId = await matchOf(server.api, ada, bo);
    await eventually('the first delivery in flight', () => r.received.length === 1, 20_000);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = spawnTsx(['src/main.ts', 'worker'], workerEnv);
    await second.waitFor(/worker started/);
    await eventually('the event delivered again', () => r.received.length === 2, 20_000);
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    expect(r.received[1]!.frame).toMatchObject({ type: 'match.created', data: { id: matchId } });

    expect((await server.api.post(`/api/v1/matches/${matchId}/messages`, { token: ada.token, body: { body: 'still there?' } })).status).toBe(201);
    await eventually('the next event delivered', () => r.received.length === 3, 20_000);
    expect(r.received[2]!.frame.type).toBe('message.created');
    // The attempt is logged once the receiver's answer is in: the killed worker's attempt never is.
    await eventually('both deliveries logged', async () => {
      const log = (await server.api.get(`/api/v1/webhooks/${hook.id}/deliveries`, { token: bo.token })).body.items as Array<{
        outcome: string;
        event_id: string;
      }>;
      expect(log.map((a) => [a.outcome, a.event_id])).toEqual([
        ['delivered', r.received[2]!.frame.id],
        ['delivered', r.received[0]!.frame.id],
      ]);
    });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);

  it('a server killed (SIGKILL) while messages are sent: once restarted, every acknowledged message reaches the webhook, in order', async () => {
    redis ??= await startTestRedis();
    const port = await freePort();
    const env = {
      ...redis.env,
      ...HOOKS,
      PORT: String(port),
      EVENT_SWEEP_MS: '200',
      WEBHOOK_LOCK_MS: '2000',
      TOKEN_SECRET: 'crash-test-secret-crash-test-secret!',
    };
    const first = spawnTsx(['src/main.ts', 'serve'], env);
    await first.waitFor(/listening on/);
    const api = await ContractClient.served(`http://127.0.0.1:${port}`);
    cleanups.push(async () => api.close());
    const [ada, bo] = [await registerAgent(api), await registerAgent(api)];
    const r = await receiver(() => ({ status: 200 }));
    expect((await api.post('/api/v1/webhooks', { token: bo.token, body: { url: r.url } })).status).toBe(201);
    const matchId = await matchOf(api, ada, bo);

    const acknowledged: number[] = [];
    let dead = false;
    const sender = async (n: number) => {
      for (let i = 0; !dead && i < 2_000; i++) {
        const res = await api.post(`/api/v1/matches/${matchId}/messages`, { token: ada.token, body: { body: `${n}-${i}` } }).catch(() => undefined);
        if (res?.status === 201) acknowledged.push(res.body.id as number);
      }
    };
    const senders = Array.from({ length: 6 }, (_, n) => sender(n));
    await eventually('100 messages acknowledged', () => acknowledged.length >= 100, 20_000);
    first.child.kill('SIGKILL');
    dead = true;
    await Promise.all(senders);
    await first.exited;

    const second = spawnTsx(['src/main.ts', 'serve'], env);
    await second.waitFor(/listening on/);
    const messageIds = () =>
      r.received.filter((d) => d.frame.type === 'message.created').map((d) => (d.frame.data.id ?? (d.frame.data.message as { id: number }).id) as number);
    await eventually('every acknowledged message delivered', () => acknowledged.every((id) => messageIds().includes(id)), 30_000);
    const eventIds = r.received.map((d) => d.frame.id);
    const firstSeen = eventIds.filter((id, i) => eventIds.indexOf(id) === i);
    expect([...firstSeen].sort(compareEventIds)).toEqual(firstSeen);
  }, 90_000);
});

function compareEventIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am! - bm! || as! - bs!;
}
