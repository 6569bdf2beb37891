import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSocket, type Frame } from '../support/event-socket.js';
import { matchedPair, sendMessage } from '../support/matched-pair.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { startTwoApps, type TestApp } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;
const sockets: EventSocket[] = [];

beforeAll(async () => {
  stack = await startTwoApps();
  ({ one, two } = stack);
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await stack?.stop();
});

async function socketOf(app: TestApp, who: SeededAccount, path = '/api/v1/ws') {
  const socket = await EventSocket.open(app.baseUrl, path, { token: who.token });
  sockets.push(socket);
  return socket;
}
const typing = (socket: EventSocket, matchId: unknown) => socket.ws.send(JSON.stringify({ type: 'typing', match_id: matchId }));
const isTyping = (f: Frame) => f.type === 'typing';
const isMessage = (id: number) => (f: Frame) => f.type === 'message.created' && f.data.id === id;

/** A match between `a` and someone new: that account and the match id. */
async function matchWith(a: SeededAccount) {
  const [other] = (await seedAccounts(one.app, 'agent', 1)) as [SeededAccount];
  await one.api.post(`/api/v1/likes/${other.user_id}?kind=like`, { token: a.token });
  const res = await one.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: other.token });
  return { other, matchId: res.body.match.id as number };
}

describe('typing frames', () => {
  it("reach the other participant's sockets on another process, and neither the sender's sockets nor a third account's", async () => {
    const { a, b, matchId } = await matchedPair(one);
    const { other: c, matchId: withC } = await matchWith(a);
    const [aHere, aThere, bThere, bHere, cThere] = await Promise.all([
      socketOf(one, a),
      socketOf(two, a),
      socketOf(two, b),
      socketOf(one, b),
      socketOf(two, c),
    ]);

    typing(aHere, matchId);
    for (const socket of [bThere, bHere]) {
      const frame = await socket.waitForFrame(isTyping);
      expect(frame).toEqual({ type: 'typing', data: { match_id: matchId, user_id: a.user_id } });
    }

    // Markers sent after the typing frame went out: whatever was relayed to a socket arrives before its marker.
    const marker = await sendMessage(one, a, matchId, 'marker');
    for (const socket of [aHere, aThere]) expect((await socket.framesBefore(isMessage(marker.id))).filter(isTyping)).toEqual([]);
    const cMarker = await sendMessage(one, a, withC, 'marker for c');
    expect((await cThere.framesBefore(isMessage(cMarker.id))).filter(isTyping)).toEqual([]);
    expect((await bThere.framesBefore(isMessage(marker.id))).filter(isTyping)).toHaveLength(1);
  });

  it('are never stored: neither a replay nor the event inbox holds them', async () => {
    const { a, b, matchId } = await matchedPair(one);
    const live = await socketOf(two, b);
    typing(await socketOf(one, a), matchId);
    await live.waitForFrame(isTyping);
    const marker = await sendMessage(one, a, matchId, 'after typing');

    const replay = await socketOf(two, b, '/api/v1/ws?since=0');
    const replayed = await replay.framesBefore(isMessage(marker.id));
    expect(replayed.map((f) => f.type)).toEqual(['match.created']);
    const inbox = await two.api.get('/api/v1/events?since=0', { token: b.token });
    expect((inbox.body.events as Frame[]).map((f) => f.type)).toEqual(['match.created', 'message.created']);
  });

  it('are throttled: a burst in one match relays one frame', async () => {
    const { a, b, matchId } = await matchedPair(one);
    const receiver = await socketOf(two, b);
    const sender = await socketOf(one, a);
    for (let i = 0; i < 5; i++) typing(sender, matchId);
    await receiver.waitForFrame(isTyping);
    const marker = await sendMessage(one, a, matchId, 'done typing');
    expect((await receiver.framesBefore(isMessage(marker.id))).filter(isTyping)).toHaveLength(1);
  });

  it('stop at once in every process when the match ends by a block, though the match was looked up just before', async () => {
    const { a, b, matchId } = await matchedPair(one);
    const { other: c, matchId: bWithC } = await matchWith(b);
    const { other: d, matchId: aWithD } = await matchWith(a);
    const [aHere, bHere, bThere, dThere] = await Promise.all([socketOf(one, a), socketOf(one, b), socketOf(two, b), socketOf(two, d)]);
    // b types first: process one now holds the match's users
    typing(bHere, matchId);
    await aHere.waitForFrame(isTyping);

    const blocked = await two.api.post(`/api/v1/blocks/${a.user_id}`, { token: b.token });
    expect(blocked.status).toBe(201);
    typing(aHere, matchId);
    // a's typing in another match, sent after on the same socket: once d has it, the first was dealt with
    typing(aHere, aWithD);
    await dThere.waitForFrame(isTyping);
    const marker = await sendMessage(one, c, bWithC, 'marker');
    const before = await bThere.framesBefore(isMessage(marker.id));
    expect(before.filter((f) => f.type === 'match.ended').map((f) => f.data.match_id)).toEqual([matchId]);
    expect(before.filter(isTyping)).toEqual([]);
  });

  it('from someone who is not in the match go nowhere and are answered with a not_found error frame; bad ones with a validation_failed one; other frames are ignored', async () => {
    const { a, b, matchId } = await matchedPair(one);
    const { other: c, matchId: cWithA } = await matchWith(a);
    const [aSocket, bSocket, cSocket] = await Promise.all([socketOf(two, a), socketOf(two, b), socketOf(one, c)]);

    typing(cSocket, matchId); // not c's match
    cSocket.ws.send('not json');
    cSocket.ws.send(JSON.stringify({ type: 'hello' }));
    typing(cSocket, cWithA); // c's own match with a: reaches a
    const fromC = await aSocket.waitForFrame(isTyping);
    expect(fromC.data).toEqual({ match_id: cWithA, user_id: c.user_id });

    const marker = await sendMessage(one, a, matchId, 'marker');
    expect((await bSocket.framesBefore(isMessage(marker.id))).filter(isTyping)).toEqual([]);
    expect((await aSocket.framesBefore(isMessage(marker.id))).filter(isTyping)).toEqual([fromC]);

    // c is answered: its typing in a match that is not c's went to nobody (and is the only frame c got)
    const notFound = await cSocket.waitForFrame((f) => f.type === 'error');
    expect(notFound).toEqual({
      type: 'error',
      data: { code: 'not_found', match_id: matchId, message: expect.stringContaining(`No current match of yours has id ${matchId}`) },
    });
    expect(cSocket.frames).toEqual([notFound]);
    // one that ended is no longer anyone's
    expect((await one.api.delete(`/api/v1/matches/${matchId}`, { token: a.token })).status).toBe(204);
    const aOnOne = await socketOf(one, a);
    typing(aOnOne, matchId);
    expect(await aOnOne.waitForFrame((f) => f.type === 'error')).toEqual({
      type: 'error',
      data: expect.objectContaining({ code: 'not_found', match_id: matchId }),
    });

    for (const bad of ['abc', -1, 1.5, null]) typing(cSocket, bad);
    const errors = (await cSocket.waitFor(5)).slice(1);
    for (const error of errors) {
      expect(error.type).toBe('error');
      expect(error.data).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('match_id') });
    }
    // the socket is still open and still hears its events
    const later = await sendMessage(one, a, cWithA, 'still there?');
    await cSocket.waitForFrame(isMessage(later.id));
  });
});
