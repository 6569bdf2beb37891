import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Match } from '../../src/features/matches/match.js';
import { matchShard } from '../../src/platform/redis/key-space.js';
import { keys, matchPartition } from '../../src/platform/redis/keys.js';
import { pendingRecords } from '../support/outbox.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { startApp, startStack, type TestApp } from '../support/stack.js';
import { messageFrames, spectatorFrames, userFrames, type StreamFrame } from '../support/stream-events.js';
import { eventually } from '../support/eventually.js';

// Writes are committed straight through the repositories, as a process that died right after the commit
// (before appending the events) would leave them; a server must then deliver their events exactly once.

/** Sweeps every 200 ms. */
let sweeping: Awaited<ReturnType<typeof startStack>>;
/** Never sweeps within a test's time: only the request path can flush here. */
let idle: Awaited<ReturnType<typeof startStack>>;
let idleTwin: TestApp;

beforeAll(async () => {
  [sweeping, idle] = await Promise.all([startStack({ EVENT_SWEEP_MS: 200 }), startStack({ EVENT_SWEEP_MS: 60_000 })]);
  idleTwin = await startApp(idle.redis, { EVENT_SWEEP_MS: 60_000 });
});
afterAll(async () => {
  await idleTwin?.stop();
  await Promise.all([sweeping?.stop(), idle?.stop()]);
});

type Stack = typeof sweeping;

/** A current agent match of two seeded agents, made through the API (its own outbox steps completed at once). */
async function matchedPair(stack: Stack): Promise<{ a: SeededAccount; b: SeededAccount; match: Match }> {
  const [a, b] = (await seedAccounts(stack.app, 'agent', 2)) as [SeededAccount, SeededAccount];
  await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  const res = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
  expect(res.body.matched).toBe(true);
  return { a, b, match: (await stack.app.matches.find('agent', res.body.match.id))! };
}

/** Commits a message as the service would, but appends no event (the process "dies" here). */
async function commitMessage(stack: Stack, match: Match, senderId: number, body: string, idempotencyKey?: string) {
  const now = new Date();
  const draft = { match_id: match.id, sender_id: senderId, body, created_at: now.toISOString(), shared_interests_mentioned: [] };
  const outcome = await stack.app.messages.append('agent', match, draft, now, idempotencyKey);
  if (!('message' in outcome)) throw new Error(`not appended: ${outcome.status}`);
  return outcome.message;
}

/** The frames of one message in both users' streams and the spectator stream. */
async function framesOf(stack: Stack, pair: { a: SeededAccount; b: SeededAccount }, messageId: number): Promise<StreamFrame[][]> {
  const redis = stack.app.redis;
  return [
    messageFrames(await userFrames(redis, 'agent', pair.a.user_id), messageId),
    messageFrames(await userFrames(redis, 'agent', pair.b.user_id), messageId),
    messageFrames(await spectatorFrames(redis), messageId),
  ];
}

const counts = (frames: StreamFrame[][]) => frames.map((f) => f.length);

describe('events of writes committed but never appended (a crash between the two)', () => {
  it('are appended exactly once by a server sweeper within seconds', async () => {
    const pair = await matchedPair(sweeping);
    const messages = [];
    for (let i = 0; i < 3; i++) messages.push(await commitMessage(sweeping, pair.match, pair.a.user_id, `committed ${i}`));
    const [c, d] = (await seedAccounts(sweeping.app, 'agent', 2)) as [SeededAccount, SeededAccount];
    await sweeping.app.swipes.record('agent', c.user_id, d.user_id, 'like', new Date());
    const swiped = await sweeping.app.swipes.record('agent', d.user_id, c.user_id, 'super_like', new Date());
    expect(swiped).toMatchObject({ status: 'recorded', outcome: 'created' });

    const redis = sweeping.app.redis;
    await eventually('outbox emptied', async () => (await pendingRecords(redis, 'agent')) === 0);
    for (const message of messages) {
      const frames = await framesOf(sweeping, pair, message.id);
      expect(counts(frames), `message ${message.id}`).toEqual([1, 1, 1]);
      expect(frames[0]![0]).toMatchObject({ type: 'message.created', data: message });
      expect(frames[2]![0]!.data).toEqual({ synthetic: true, message });
    }
    // the swipe's match and super like, each once, as today's frames
    const matchId = swiped.status === 'recorded' ? swiped.matchId! : 0;
    const ofC = await userFrames(redis, 'agent', c.user_id);
    const ofD = await userFrames(redis, 'agent', d.user_id);
    expect(ofC.map((f) => f.type)).toEqual(['like.received', 'match.created']);
    expect(ofC[0]!.data).toMatchObject({ from: { id: d.user_id }, kind: 'super_like' });
    expect(ofC[1]!.data).toMatchObject({ id: matchId, user: { id: d.user_id }, last_message: null });
    expect(ofD.map((f) => f.type)).toEqual(['match.created']);
    expect(ofD[0]!.data).toMatchObject({ id: matchId, user: { id: c.user_id } });
    const spectators = (await spectatorFrames(redis)).filter((f) => f.type === 'match.created' && f.data.match.id === matchId);
    expect(spectators).toHaveLength(1);
    expect(spectators[0]!.data.match.users.map((u: { id: number }) => u.id)).toEqual([c.user_id, d.user_id].sort((x, y) => x - y));
    // and the match is in both users' lists and the pool's, each swipe in its swiper's swipes
    for (const id of [c.user_id, d.user_id]) expect(await redis.zscore(keys.userMatches('agent', id), String(matchId)), `user ${id}`).not.toBeNull();
    expect(await redis.zscore(keys.poolMatches('agent', matchPartition(matchId)), String(matchId))).not.toBeNull();
    expect(await redis.hget(keys.swipes('agent', c.user_id), String(d.user_id))).toBe('like');
    expect(await redis.hget(keys.swipes('agent', d.user_id), String(c.user_id))).toBe('super_like');
  });
});

describe('an Idempotency-Key retry after such a crash', () => {
  it('answers the stored message, and its events exist when the answer arrives', async () => {
    const pair = await matchedPair(idle);
    const message = await commitMessage(idle, pair.match, pair.b.user_id, 'lost in a crash?', 'retry-me');
    expect(counts(await framesOf(idle, pair, message.id))).toEqual([0, 0, 0]);
    const retry = await idle.api.post(`/api/v1/matches/${pair.match.id}/messages`, {
      token: pair.b.token,
      headers: { 'idempotency-key': 'retry-me' },
      body: { body: 'lost in a crash?' },
    });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(message);
    expect(counts(await framesOf(idle, pair, message.id))).toEqual([1, 1, 1]);
    // a second retry appends nothing more
    await idle.api.post(`/api/v1/matches/${pair.match.id}/messages`, {
      token: pair.b.token,
      headers: { 'idempotency-key': 'retry-me' },
      body: { body: 'lost in a crash?' },
    });
    expect(counts(await framesOf(idle, pair, message.id))).toEqual([1, 1, 1]);
  });

  it('answers the stored match, and its events exist when the answer arrives', async () => {
    const [a, b] = (await seedAccounts(idle.app, 'agent', 2)) as [SeededAccount, SeededAccount];
    await idle.app.swipes.record('agent', a.user_id, b.user_id, 'like', new Date());
    const first = await idle.app.swipes.record('agent', b.user_id, a.user_id, 'like', new Date(), 'swipe-key');
    expect(first).toMatchObject({ status: 'recorded', outcome: 'created' });
    expect(await userFrames(idle.app.redis, 'agent', a.user_id)).toEqual([]);
    const retry = await idle.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token, headers: { 'idempotency-key': 'swipe-key' } });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ matched: true, match: { user: { id: a.user_id } } });
    for (const id of [a.user_id, b.user_id]) {
      expect(
        (await userFrames(idle.app.redis, 'agent', id)).map((f) => f.type),
        `user ${id}`,
      ).toEqual(['match.created']);
    }
  });
});

describe('concurrent flushers', () => {
  it('never append a write’s events twice', async () => {
    const pair = await matchedPair(idle);
    const messages = [];
    for (let i = 0; i < 20; i++) messages.push(await commitMessage(idle, pair.match, pair.a.user_id, `race ${i}`));
    // two servers sweep at once, while retries of the same records flush them one by one
    await Promise.all([
      idle.app.outbox.sweep(0),
      idleTwin.app.outbox.sweep(0),
      idle.app.outbox.sweep(0),
      ...messages.map((m) => idleTwin.app.outbox.complete('agent', { shard: matchShard(pair.match.id), id: `m${m.id}` })),
    ]);
    for (const message of messages) expect(counts(await framesOf(idle, pair, message.id)), `message ${message.id}`).toEqual([1, 1, 1]);
    expect(await pendingRecords(idle.app.redis, 'agent')).toBe(0);
  });
});
