import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { EventSocket } from '../support/event-socket.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { matchedPair as pairOf, sendMessage } from '../support/matched-pair.js';
import { startStack } from '../support/stack.js';
import { whereStored } from '../support/stored-values.js';

const MAX_MESSAGES = 10;
let stack: Awaited<ReturnType<typeof startStack>>;
const sockets: EventSocket[] = [];
beforeAll(async () => {
  stack = await startStack({ THREAD_MAX_MESSAGES: MAX_MESSAGES, THREAD_MAX_AGE_DAYS: 30 });
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await stack?.stop();
});

const matchedPair = () => pairOf(stack);
const send = (from: SeededAccount, matchId: number, body: string, headers: Record<string, string> = {}) => sendMessage(stack, from, matchId, body, headers);

async function replay(path: string, token?: string) {
  const socket = await EventSocket.open(stack.baseUrl, path, token ? { token } : {});
  sockets.push(socket);
  return socket;
}

describe('a message is stored once', () => {
  it('lives in its thread alone: events, the match and an Idempotency-Key record refer to it, and replays still carry it whole', async () => {
    const { a, b, matchId } = await matchedPair();
    const tag = `one-copy-${Date.now()}`;
    const body = `${tag} ${'🦊'.repeat(1_900)}`;
    const sent = await send(a, matchId, body, { 'Idempotency-Key': `${tag}-key` });
    expect(sent.body).toBe(body);

    expect(await whereStored(stack.app.redis, tag)).toEqual({ [keys.thread('agent', matchId)]: 1 });

    // A retry with the key answers the same message, read from the thread.
    const again = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body }, headers: { 'Idempotency-Key': `${tag}-key` } });
    expect(again.body).toMatchObject({ id: sent.id, body });
    // The match shows it as its last message.
    const listed = await stack.api.get(`/api/v1/matches/${matchId}`, { token: b.token });
    expect(listed.body.last_message).toMatchObject({ id: sent.id, body });
    // Both users' replays and the spectators' carry the whole body.
    for (const user of [a, b]) {
      const socket = await replay('/api/v1/ws?since=0', user.token);
      const frame = await socket.waitForFrame((f) => f.type === 'message.created');
      expect(frame.data).toMatchObject({ id: sent.id, match_id: matchId, sender_id: a.user_id, body });
    }
    const spectator = await replay('/api/v1/spectator/stream?since=0');
    const seen = await spectator.waitForFrame((f) => f.type === 'message.created' && f.data.message.id === sent.id);
    expect(seen.data.message.body).toBe(body);
    expect(seen.synthetic).toBe(true);
  });
});

describe('thread history is bounded', () => {
  it('keeps the newest THREAD_MAX_MESSAGES messages; replays skip the events of those dropped', async () => {
    const { a, b, matchId } = await matchedPair();
    const sent: number[] = [];
    for (let i = 0; i < MAX_MESSAGES + 5; i++) sent.push((await send(i % 2 ? b : a, matchId, `bounded ${i}`)).id);

    expect(await stack.app.redis.xlen(keys.thread('agent', matchId))).toBe(MAX_MESSAGES);
    const page = await stack.api.get(`/api/v1/matches/${matchId}/messages?limit=100`, { token: a.token });
    expect(page.body.items.map((m: { id: number }) => m.id)).toEqual(sent.slice(5));

    const socket = await replay('/api/v1/ws?since=0', a.token);
    await socket.waitForFrame((f) => f.type === 'message.created' && f.data.id === sent.at(-1));
    expect(socket.frames.filter((f) => f.type === 'message.created').map((f) => f.data.id)).toEqual(sent.slice(5));
  });

  it('drops messages older than THREAD_MAX_AGE_DAYS when the next one is added, and lets a quiet thread expire', async () => {
    const { a, matchId } = await matchedPair();
    const thread = keys.thread('agent', matchId);
    const created = Date.parse('2020-01-01T00:00:00.000Z');
    for (const id of [1, 2]) await stack.app.redis.xadd(thread, `${id}-${created}`, 's', a.user_id, 'b', `old ${id}`, 'i', '', 'a', 0, 'z', 0);
    const fresh = await send(a, matchId, 'fresh');
    const kept = (await stack.app.redis.xrange(thread, '-', '+')) as Array<[string, string[]]>;
    expect(kept.map(([id]) => Number(id.split('-')[0]))).toEqual([fresh.id]);
    const ttl = await stack.app.redis.pttl(thread);
    expect(ttl).toBeGreaterThan(29 * 86_400_000);
    expect(ttl).toBeLessThanOrEqual(30 * 86_400_000);
  });

  it("remembers a user's ended matches for a bounded time: a day, or as long as their threads are kept for reports", async () => {
    const first = await matchedPair();
    const ended = keys.endedMatches('agent', first.a.user_id);
    expect((await stack.api.delete(`/api/v1/matches/${first.matchId}`, { token: first.a.token })).status).toBe(204);
    expect(await stack.app.redis.zscore(ended, String(first.matchId))).not.toBeNull();
    // as if the first had ended a day before the longer of the two: the next unmatch of the user's trims it
    const kept = Math.max(86_400_000, stack.app.config.REPORT_EVIDENCE_HOURS * 3_600_000);
    await stack.app.redis.zadd(ended, Date.now() - kept - 86_400_000, String(first.matchId));
    const [c] = await seedAccounts(stack.app, 'agent', 1);
    await stack.api.post(`/api/v1/likes/${c!.user_id}?kind=like`, { token: first.a.token });
    const second = await stack.api.post(`/api/v1/likes/${first.a.user_id}?kind=like`, { token: c!.token });
    expect((await stack.api.delete(`/api/v1/matches/${second.body.match.id}`, { token: first.a.token })).status).toBe(204);
    expect(await stack.app.redis.zrange(ended, '0', '-1')).toEqual([String(second.body.match.id)]);
    expect(await stack.app.redis.pttl(ended)).toBeGreaterThan(0);
  });
});
