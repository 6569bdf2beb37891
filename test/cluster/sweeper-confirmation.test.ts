import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { eventually } from '../support/eventually.js';
import { matchedPair } from '../support/matched-pair.js';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.js';
import { cutReplication, type ReplicationCut } from '../support/replication-cut.js';
import { startApp, type TestApp } from '../support/stack.js';
import { userFrames } from '../support/stream-events.js';

// A write answered 503 (its replica did not confirm it) may be lost to a failover. Until the replica holds it,
// the outbox sweeper must not carry out its steps: they would append events for a message that may vanish,
// and leave step marks in other slots that the same ids, handed out again after the failover, would run into.
const METRICS_TOKEN = 'sweeper-confirmation-metrics';
const SETTINGS = { REDIS_MIN_REPLICAS_ACK: 1, REDIS_REPLICA_ACK_TIMEOUT_MS: 300, EVENT_SWEEP_MS: 200, METRICS_TOKEN };

let cluster: RedisCluster;
let server: TestApp;
let cut: ReplicationCut | undefined;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: 1 });
  server = await startApp({ kind: 'cluster', nodes: cluster.nodes }, SETTINGS);
});
afterAll(async () => {
  await cut?.restore();
  await server?.stop();
  await cluster?.cleanup();
});

/** The writes this process answered 503 because no replica confirmed them in time, the sweeper's included. */
async function unconfirmedWrites(): Promise<number> {
  const res = await server.api.get('/metrics', { token: METRICS_TOKEN });
  return Number(/^redis_replica_ack_timeouts_total (\d+)$/m.exec(res.text)?.[1] ?? 0);
}

describe('the outbox sweeper and a write its replicas have not confirmed', () => {
  it('carries out none of its steps until they hold it, then all of them once', async () => {
    const { a, b, matchId } = await matchedPair(server);
    const messageEvents = async () =>
      (await Promise.all([a, b].map((account) => userFrames(server.app.redis, 'agent', account.user_id)))).map(
        (frames) => frames.filter((frame) => frame.type === 'message.created').length,
      );
    cut = await cutReplication(await cluster.masterOf(keys.thread('agent', matchId)));
    const send = () =>
      server.api.post(`/api/v1/matches/${matchId}/messages`, {
        token: a.token,
        body: { body: 'while the replica is cut off' },
        headers: { 'Idempotency-Key': 'cut-1' },
      });
    expect((await send()).status).toBe(503);
    const refusedByTheSend = await unconfirmedWrites();

    // The record is due after one sweep interval; each sweep that comes to it is refused its confirmation.
    await eventually(
      'two sweeps refused, or the steps carried out',
      async () => (await unconfirmedWrites()) >= refusedByTheSend + 2 || (await messageEvents()).some((n) => n > 0),
    );
    expect(await messageEvents()).toEqual([0, 0]);

    await cut.restore();
    await eventually('the steps carried out once the replica holds the write', async () => (await messageEvents()).every((n) => n === 1));
    // The sender's retry is answered with the message its first send wrote, and appends nothing more.
    const replayed = await send();
    expect(replayed.status).toBe(201);
    const [event] = (await userFrames(server.app.redis, 'agent', b.user_id)).filter((frame) => frame.type === 'message.created');
    expect(event!.data.id).toBe(replayed.body.id);
    expect(await messageEvents()).toEqual([1, 1]);
  });
});
