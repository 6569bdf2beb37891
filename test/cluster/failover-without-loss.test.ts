import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import type { RedisTopology } from '../../src/platform/redis/redis-topology.js';
import { register, registrationBody, type Account } from '../support/accounts.js';
import { EventSocket, type Frame } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.js';
import { cutReplication, type ReplicationCut } from '../support/replication-cut.js';
import { startApp, type TestApp } from '../support/stack.js';

// Jepsen's way, in the suite: a cluster of three masters with a replica each, two service processes asking
// for one replica's confirmation of every acknowledged write. Agents register, match and message; the
// replication stream of the master holding the busiest slots is cut (its replica falls behind, as in a
// partition), then that master is killed, or paused past the node timeout and let back as a replica. Every
// write the service acknowledged must be there afterwards exactly once, and every event must reach its
// sockets once after a resume.
const NODE_TIMEOUT_MS = 2_000;
// The event inbox is polled until every event is there: its per-account read limit is not what is tested.
const SETTINGS = { REDIS_MIN_REPLICAS_ACK: 1, REDIS_REPLICA_ACK_TIMEOUT_MS: 300, EVENT_SWEEP_MS: 500, EVENTS_RATE_LIMIT: 100_000 };
const PAIRS = 8;

let cluster: RedisCluster;
let servers: TestApp[] = [];
let cut: ReplicationCut | undefined;

// Each scenario on a cluster of its own: after one, a master is gone or has no replica of its own.
beforeEach(async () => {
  cluster = await startRedisCluster({ replicas: 1, nodeTimeoutMs: NODE_TIMEOUT_MS });
  const topology: RedisTopology = { kind: 'cluster', nodes: cluster.nodes };
  servers = [await startApp(topology, SETTINGS), await startApp(topology, SETTINGS)];
});

afterEach(async () => {
  await cut?.restore();
  await Promise.all(servers.map((server) => server.stop()));
  await cluster?.cleanup();
});

type Pair = { a: Account; b: Account; matchId: number; sockets: Map<number, EventSocket> };
type Sent = { pair: Pair; from: Account; key: string; body: string; id?: number; tookMs?: number };

const serverFor = (n: number) => servers[n % servers.length]!;

async function matchedPairs(count: number): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const [a, b] = [await register(serverFor(i).api, 'agent'), await register(serverFor(i + 1).api, 'agent')];
    const sockets = new Map<number, EventSocket>();
    for (const [n, account] of [a, b].entries())
      sockets.set(account.user_id, await EventSocket.open(serverFor(i + n).baseUrl, '/api/v1/ws', { token: account.token }));
    expect((await serverFor(i).api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token })).status).toBe(200);
    const liked = await serverFor(i + 1).api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
    expect(liked.body.matched).toBe(true);
    pairs.push({ a, b, matchId: liked.body.match.id, sockets });
  }
  return pairs;
}

/** Sends `sent` until it is acknowledged, with the same Idempotency-Key every time, from either process in turn. */
async function sendUntilAcknowledged(sent: Sent, refused: (at: number) => void): Promise<void> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    const res = await serverFor(attempt)
      .api.post(`/api/v1/matches/${sent.pair.matchId}/messages`, {
        token: sent.from.token,
        body: { body: sent.body },
        headers: { 'Idempotency-Key': sent.key },
      })
      .catch(() => undefined);
    if (res?.status === 201) {
      sent.id = res.body.id;
      sent.tookMs = performance.now() - started;
      return;
    }
    expect(res === undefined || res.status === 503, `answered ${res?.status} ${res?.text}`).toBe(true);
    refused(performance.now());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The whole thread, page after page. */
async function thread(pair: Pair): Promise<Array<{ id: number; body: string }>> {
  const items: Array<{ id: number; body: string }> = [];
  for (let cursor = ''; ;) {
    const res = await servers[0]!.api.get(`/api/v1/matches/${pair.matchId}/messages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      token: pair.a.token,
    });
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    if (!res.body.next_cursor) return items;
    cursor = res.body.next_cursor;
  }
}

/** Every event of the account's stream, oldest first, through the event inbox from the start (`since=0`). */
async function inbox(account: Account): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (let since = '0'; ;) {
    const res = await servers[1]!.api.get(`/api/v1/events?since=${encodeURIComponent(since)}&limit=500`, { token: account.token });
    expect(res.status).toBe(200);
    frames.push(...res.body.events);
    if (res.body.events.length === 0 || res.body.next_cursor === since) return frames;
    since = res.body.next_cursor;
  }
}

/**
 * A socket resumed after `since`. A 503 (the store still settling after the failover) is retried, as the
 * contract tells a client to.
 */
async function resume(account: Account, since: string): Promise<EventSocket> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await EventSocket.open(servers[0]!.baseUrl, `/api/v1/ws?since=${encodeURIComponent(since)}`, { token: account.token });
    } catch (error) {
      if ((error as { status?: number }).status !== 503 || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** The master holding most of the pairs' threads. */
async function busiestMaster(pairs: Pair[]): Promise<number> {
  const counts = new Map<number, number>();
  for (const pair of pairs) {
    const port = await cluster.masterOf(keys.thread('agent', pair.matchId));
    counts.set(port, (counts.get(port) ?? 0) + 1);
  }
  return [...counts].sort((x, y) => y[1] - x[1])[0]![0];
}

async function failOver(fault: 'kill' | 'pause') {
  const pairs = await matchedPairs(PAIRS);
  const master = await busiestMaster(pairs);
  const sent: Sent[] = [];
  const registered: Account[] = [];
  let firstRefusal = 0;
  let lastRefusal = 0;
  const refused = (at: number) => {
    firstRefusal ||= at;
    lastRefusal = at;
  };
  let writing = true;
  const writers = pairs.map(async (pair, p) => {
    for (let n = 0; writing; n++) {
      const message: Sent = { pair, from: n % 2 ? pair.b : pair.a, key: `failover-${fault}-${p}-${n}`, body: `${fault} ${p}/${n}` };
      sent.push(message);
      await sendUntilAcknowledged(message, refused);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  const registrations = (async () => {
    for (let n = 0; writing; n++) {
      const body = registrationBody();
      const res = await serverFor(n)
        .api.post('/api/v1/agents/register', { body })
        .catch(() => undefined);
      if (res?.status === 201)
        registered.push({ token: res.body.token, user_id: res.body.user_id, email: String(body.email), password: String(body.password) });
      else expect(res === undefined || res.status === 503, `registration answered ${res?.status} ${res?.text}`).toBe(true);
    }
  })();

  await eventually('messages before the cut', () => sent.filter((message) => message.id).length >= PAIRS * 2);
  cut = await cutReplication(master);
  // Writes go on against a replica that falls behind.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const faultAt = performance.now();
  if (fault === 'kill') await cluster.kill(master);
  else await cluster.pause(master);
  const promoted = await cluster.waitForPromotion(master, 30_000);
  const promotedAt = performance.now();
  await cut.restore();
  // The promoted master has no replica of its own, so it confirms no write until one follows it again: the
  // old master, let back (paused) or started again on its data (killed), as an operator would.
  if (fault === 'pause') cluster.resume(master);
  else await cluster.restartNode(master);
  expect(await cluster.waitForReplica(master, 30_000)).toBe(promoted);
  // Writes carry on after the promotion, on both processes, without a restart.
  const acknowledgedAtPromotion = sent.filter((message) => message.id).length;
  await eventually(
    'messages acknowledged after the promotion',
    () => sent.filter((message) => message.id).length >= acknowledgedAtPromotion + PAIRS * 2,
    30_000,
  );
  writing = false;
  await Promise.all([...writers, registrations]);
  console.log(
    `${fault}: master ${master} replaced by ${promoted} ${Math.round(promotedAt - faultAt)} ms after the fault; ` +
      `writes refused (503) from the first refusal to the last for ${Math.round(lastRefusal - (firstRefusal || lastRefusal))} ms; ` +
      `the longest a message took to be acknowledged, retries included: ${Math.round(Math.max(...sent.map((message) => message.tookMs ?? 0)))} ms; ` +
      `${sent.filter((message) => message.id).length} messages acknowledged, ${registered.length} registrations`,
  );

  // Every acknowledged message is in its thread exactly once.
  for (const pair of pairs) {
    const bodies = (await thread(pair)).map((message) => message.body);
    for (const message of sent.filter((one) => one.pair === pair))
      expect(
        bodies.filter((body) => body === message.body),
        message.body,
      ).toHaveLength(1);
  }
  // Every acknowledged account and match is there.
  for (const account of registered) expect((await servers[1]!.api.get('/api/v1/me', { token: account.token })).status, `account ${account.user_id}`).toBe(200);
  for (const pair of pairs) expect((await servers[1]!.api.get(`/api/v1/matches/${pair.matchId}`, { token: pair.b.token })).status).toBe(200);

  // Every message's event is in each account's stream exactly once (the event inbox reads the stream whole),
  // and a socket that resumes from the last frame it got brings none it had already.
  for (const pair of pairs) {
    const expected = sent.filter((message) => message.pair === pair).map((message) => message.id!);
    for (const account of [pair.a, pair.b]) {
      const messageIds = (frames: Frame[]) => frames.filter((frame) => frame.type === 'message.created').map((frame) => frame.data.id as number);
      const stored = await eventually(
        `every message's event for ${account.user_id}`,
        async () => {
          const frames = await inbox(account);
          const missing = expected.filter((id) => !messageIds(frames).includes(id));
          expect(missing, `acknowledged messages without an event in ${account.user_id}'s stream`).toEqual([]);
          return frames;
        },
        30_000,
      );
      expect(messageIds(stored).length, `message events of ${account.user_id}`).toBe(new Set(messageIds(stored)).size);
      expect(stored.filter((frame) => frame.type === 'match.created')).toHaveLength(1);

      const live = pair.sockets.get(account.user_id)!;
      live.ws.close();
      const last = live.frames.at(-1)!.id;
      const resumed = await resume(account, last);
      try {
        const newest = stored.at(-1)!.id;
        if (newest !== last)
          await eventually(`the resume of ${account.user_id} up to the newest event`, () => resumed.frames.some((frame) => frame.id === newest), 30_000);
        const delivered = [...live.frames, ...resumed.frames].map((frame) => frame.id);
        expect(delivered.length, `frames of ${account.user_id}`).toBe(new Set(delivered).size);
      } finally {
        resumed.ws.close();
      }
    }
  }
}

describe('a Redis Cluster failover with REDIS_MIN_REPLICAS_ACK=1', () => {
  it('loses no acknowledged account, match or message when the master is killed after its replica fell behind', async () => {
    await failOver('kill');
  }, 120_000);

  it('loses none when the master is paused past the node timeout and comes back as a replica', async () => {
    await failOver('pause');
  }, 120_000);
});
