import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { matchedPair as pairOf, sendMessage } from '../support/matched-pair.js';
import type { SeededAccount } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';
import { receiversPerTest } from '../support/webhook-receiver.js';

const MAX_MESSAGES = 10;
const READ_LIMIT = 20;
let stack: Awaited<ReturnType<typeof startStack>>;
const sockets: EventSocket[] = [];
const receiver = receiversPerTest();
beforeAll(async () => {
  stack = await startStack({ THREAD_MAX_MESSAGES: MAX_MESSAGES, READ_RATE_LIMIT: READ_LIMIT, READ_RATE_WINDOW_SECONDS: 3600, WEBHOOK_ALLOW_PRIVATE: true });
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await stack?.stop();
});

const matchedPair = () => pairOf(stack);
const send = (from: SeededAccount, matchId: number, body: string) => sendMessage(stack, from, matchId, body);
const markRead = (who: SeededAccount, matchId: number, messageId: unknown) =>
  stack.api.post(`/api/v1/matches/${matchId}/read`, { token: who.token, body: { message_id: messageId } });
const unreadIn = async (who: SeededAccount, matchId: number) => {
  const res = await stack.api.get(`/api/v1/matches/${matchId}`, { token: who.token });
  expect(res.status, res.text).toBe(200);
  return res.body.unread_count as number;
};
const listedUnread = async (who: SeededAccount, matchId: number) => {
  const res = await stack.api.get('/api/v1/matches', { token: who.token });
  return (res.body.items as Array<{ id: number; unread_count: number }>).find((item) => item.id === matchId)?.unread_count;
};
async function openSocket(who: SeededAccount, path = '/api/v1/ws') {
  const socket = await EventSocket.open(stack.baseUrl, path, { token: who.token });
  sockets.push(socket);
  return socket;
}

describe('unread counts', () => {
  it("count the other side's messages after the mark, in the match and in the list, and fall as the thread is read", async () => {
    const { a, b, matchId } = await matchedPair();
    expect(await unreadIn(a, matchId)).toBe(0);
    const first = await send(b, matchId, 'one');
    await send(a, matchId, 'mine do not count');
    const third = await send(b, matchId, 'two');
    await send(b, matchId, 'three');
    expect(await unreadIn(a, matchId)).toBe(3);
    expect(await listedUnread(a, matchId)).toBe(3);
    expect(await unreadIn(b, matchId)).toBe(1);

    const read = await markRead(a, matchId, third.id);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({ match_id: matchId, read_up_to: third.id, unread_count: 1 });
    expect(await unreadIn(a, matchId)).toBe(1);
    expect((await stack.api.get(`/api/v1/matches/${matchId}`, { token: a.token })).body.read_up_to).toBe(third.id);
    // b's side is b's own
    expect(await unreadIn(b, matchId)).toBe(1);

    // Never backwards: an older message changes nothing, and the same one again neither.
    for (const id of [first.id, third.id]) {
      const again = await markRead(a, matchId, id);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ match_id: matchId, read_up_to: third.id, unread_count: 1 });
    }
    // Marking one's own newest message reads everything before it.
    const mine = await send(a, matchId, 'caught up');
    expect((await markRead(a, matchId, mine.id)).body).toEqual({ match_id: matchId, read_up_to: mine.id, unread_count: 0 });
    expect(await listedUnread(a, matchId)).toBe(0);
  });

  it('count a thread that had messages before read state was kept as read, and count what comes after', async () => {
    const { a, b, matchId } = await matchedPair();
    // Such a thread (as the move to key layout 3 writes it) has entries without sent counts, and no read state.
    const thread = keys.thread('agent', matchId);
    for (const id of [1, 2]) await stack.app.redis.xadd(thread, `${id}-${Date.now()}`, 's', b.user_id, 'b', `before ${id}`, 'i', '', 'a', 0, 'z', 0);
    expect(await stack.app.redis.exists(keys.readState('agent', matchId))).toBe(0);
    expect(await unreadIn(a, matchId)).toBe(0);
    await send(b, matchId, 'after');
    expect(await unreadIn(a, matchId)).toBe(1);
    expect((await markRead(a, matchId, 1)).body).toEqual({ match_id: matchId, read_up_to: 1, unread_count: 1 });
  });

  it('stay right past the thread cap: dropped messages count as read, never below zero', async () => {
    const { a, b, matchId } = await matchedPair();
    const first = await send(b, matchId, 'first');
    for (let i = 0; i < MAX_MESSAGES + 4; i++) await send(b, matchId, `flood ${i}`);
    // Only the newest MAX_MESSAGES are kept: that many can be unread.
    expect(await unreadIn(a, matchId)).toBe(MAX_MESSAGES);
    // The first message is gone: it cannot be marked.
    const gone = await markRead(a, matchId, first.id);
    expect(gone.status).toBe(400);
    expect(gone.body.error.code).toBe('validation_failed');

    const page = await stack.api.get(`/api/v1/matches/${matchId}/messages?limit=3`, { token: a.token });
    const ids = (page.body.items as Array<{ id: number }>).map((m) => m.id);
    expect((await markRead(a, matchId, ids[0])).body.unread_count).toBe(2);
    // a answers twice, then b floods again: the mark's count stays right as the messages it covered are dropped
    await send(a, matchId, 'reply 1');
    await send(a, matchId, 'reply 2');
    for (let i = 0; i < MAX_MESSAGES; i++) await send(b, matchId, `again ${i}`);
    expect(await unreadIn(a, matchId)).toBe(MAX_MESSAGES);
    const newest = (await stack.api.get(`/api/v1/matches/${matchId}/messages?limit=1`, { token: a.token })).body.items[0].id as number;
    expect((await markRead(a, matchId, newest)).body.unread_count).toBe(0);
    // b's side: b had read nothing, and a's two replies are dropped by now
    expect(await unreadIn(b, matchId)).toBe(0);
  });
});

describe('POST /api/v1/matches/{id}/read', () => {
  it("refuses a message id of no message of this match, a bad body, a match that is not the caller's or ended", async () => {
    const { a, b, matchId } = await matchedPair();
    const other = await matchedPair();
    const elsewhere = await send(other.a, other.matchId, 'not yours');
    const mine = await send(b, matchId, 'hello');

    for (const [id, status] of [
      [elsewhere.id, 400],
      [mine.id + 1_000_000, 400],
      ['abc', 400],
      [0, 400],
      [-1, 400],
      [1.5, 400],
      [null, 400],
    ] as const) {
      const res = await markRead(a, matchId, id);
      expect(res.status, `${String(id)}: ${res.text}`).toBe(status);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.message).not.toMatch(/zod|Expected|received/i);
    }
    const extra = await stack.api.post(`/api/v1/matches/${matchId}/read`, { token: a.token, body: { message_id: mine.id, extra: 1 } });
    expect(extra.status).toBe(400);
    // someone else's match, an unknown match, a user id in place of a match id: 404 as the other match routes answer
    for (const id of [other.matchId, 999_999_999, a.user_id]) {
      const res = await stack.api.post(`/api/v1/matches/${id}/read`, { token: a.token, body: { message_id: mine.id } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    const ended = await markRead(a, matchId, mine.id);
    expect(ended.status).toBe(410);
    expect(ended.body.error).toMatchObject({ code: 'match_ended', ended_at: expect.any(String) });
  });

  it('is rate limited per account: 429 with Retry-After past READ_RATE_LIMIT', async () => {
    const { a, b, matchId } = await matchedPair();
    const message = await send(b, matchId, 'read me often');
    for (let i = 0; i < READ_LIMIT; i++) expect((await markRead(a, matchId, message.id)).status).toBe(200);
    const refused = await markRead(a, matchId, message.id);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // b's limit is b's own
    expect((await markRead(b, matchId, message.id)).status).toBe(200);
  });
});

describe('message.read', () => {
  it('reaches the other side by socket and by GET /api/v1/events when the mark moves, once; never the reader', async () => {
    const { a, b, matchId } = await matchedPair();
    const bSocket = await openSocket(b);
    const aSocket = await openSocket(a);
    const first = await send(b, matchId, 'did you read this?');
    const second = await send(b, matchId, 'and this?');

    expect((await markRead(a, matchId, first.id)).status).toBe(200);
    expect((await markRead(a, matchId, first.id)).status).toBe(200); // unchanged: no second event
    expect((await markRead(a, matchId, second.id)).status).toBe(200);
    const expected = [
      { match_id: matchId, reader_id: a.user_id, message_id: first.id },
      { match_id: matchId, reader_id: a.user_id, message_id: second.id },
    ];

    const marker = await send(a, matchId, 'yes');
    const seenByB = await bSocket.framesBefore((f) => f.type === 'message.created' && f.data.id === marker.id);
    expect(seenByB.filter((f) => f.type === 'message.read').map((f) => f.data)).toEqual(expected);
    expect(seenByB.find((f) => f.type === 'message.read')).toMatchObject({ id: expect.any(String), at: expect.any(String) });

    const inbox = await stack.api.get('/api/v1/events?since=0', { token: b.token });
    expect(inbox.status).toBe(200);
    expect((inbox.body.events as Array<{ type: string; data: unknown }>).filter((e) => e.type === 'message.read').map((e) => e.data)).toEqual(expected);

    // the reader is not told of its own reads, on its socket, its inbox or its replay
    const seenByA = await aSocket.framesBefore((f) => f.type === 'message.created' && f.data.id === marker.id);
    expect(seenByA.map((f) => f.type)).not.toContain('message.read');
    const aInbox = await stack.api.get('/api/v1/events?since=0', { token: a.token });
    expect((aInbox.body.events as Array<{ type: string }>).map((e) => e.type)).not.toContain('message.read');

    // and it replays to b with since
    const replay = await openSocket(b, '/api/v1/ws?since=0');
    const replayed = await replay.framesBefore((f) => f.type === 'message.created' && f.data.id === marker.id);
    expect(replayed.filter((f) => f.type === 'message.read').map((f) => f.data)).toEqual(expected);
  });

  it('reaches a webhook that names it, and not one created with the default event types', async () => {
    const { a, b, matchId } = await matchedPair();
    const [named, defaults] = await Promise.all([receiver(), receiver()]);
    const hook = (body: Record<string, unknown>) => stack.api.post('/api/v1/webhooks', { token: b.token, body });
    const created = await hook({ url: named.url, event_types: ['message.read', 'message.created'] });
    expect(created.status, created.text).toBe(201);
    const byDefault = await hook({ url: defaults.url });
    expect(byDefault.body.event_types).not.toContain('message.read');

    const message = await send(b, matchId, 'webhooks are listening');
    expect((await markRead(a, matchId, message.id)).status).toBe(200);
    const marker = await send(a, matchId, 'marker');
    const isMarker = (r: { frame: { type: string; data: Record<string, unknown> } }) => r.frame.type === 'message.created' && r.frame.data.id === marker.id;
    await eventually('both webhooks got the marker', () => named.events().some(isMarker) && defaults.events().some(isMarker));
    // each webhook's deliveries come in stream order: what came before the marker is all there is
    const before = (events: ReturnType<typeof named.events>) => events.slice(0, events.findIndex(isMarker)).map((r) => r.frame);
    expect(
      before(named.events())
        .filter((f) => f.type === 'message.read')
        .map((f) => f.data),
    ).toEqual([{ match_id: matchId, reader_id: a.user_id, message_id: message.id }]);
    expect(before(defaults.events()).map((f) => f.type)).not.toContain('message.read');
  });

  it('is never shown to spectators', async () => {
    const { a, b, matchId } = await matchedPair();
    const message = await send(b, matchId, 'spectators see this');
    expect((await markRead(a, matchId, message.id)).status).toBe(200);
    const marker = await send(a, matchId, 'and this');
    const spectator = await openSocket(a, '/api/v1/spectator/stream?since=0');
    const frames = await spectator.framesBefore((f) => f.type === 'message.created' && f.data.message.id === marker.id);
    expect(frames.map((f) => f.type)).not.toContain('message.read');
    const view = await stack.api.get(`/api/v1/spectator/matches/${matchId}`);
    expect(JSON.stringify(view.body)).not.toMatch(/unread|read_up_to/);
  });
});
