import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchShard } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';
import { EventSocket } from '../support/event-socket.js';
import { type SeededAccount } from '../support/seeded-accounts.js';
import { matchedPair as pairOf, sendMessage } from '../support/matched-pair.js';
import { startStack } from '../support/stack.js';
import { messageFrames, spectatorFrames, userFrames } from '../support/stream-events.js';

let stack: Awaited<ReturnType<typeof startStack>>;
const open: EventSocket[] = [];
beforeAll(async () => {
  stack = await startStack({ EVENT_SWEEP_MS: 60_000 });
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

const matchedPair = () => pairOf(stack);
const send = (from: SeededAccount, matchId: number, body: string) => sendMessage(stack, from, matchId, body);

async function replay(path: string, token?: string) {
  const socket = await EventSocket.open(stack.baseUrl, path, token ? { token } : {});
  open.push(socket);
  return socket;
}

describe('an ended match', () => {
  it('is replayed as match.created then match.ended, its messages no longer served anywhere', async () => {
    const { a, b, matchId } = await matchedPair();
    const sent = [await send(a, matchId, 'first'), await send(b, matchId, 'second')];
    expect(messageFrames(await userFrames(stack.app.redis, 'agent', a.user_id), sent[0]!.id)).toHaveLength(1);
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);

    for (const user of [a, b]) {
      const socket = await replay('/api/v1/ws?since=0', user.token);
      await socket.waitForFrame((f) => f.type === 'match.ended');
      expect(
        socket.frames.map((f) => f.type),
        `user ${user.user_id}`,
      ).toEqual(['match.created', 'match.ended']);
      expect(socket.frames[1]!.data).toMatchObject({ match_id: matchId });
    }
    const spectator = await replay('/api/v1/spectator/stream?since=0');
    await spectator.waitForFrame((f) => f.type === 'match.ended' && f.data.match_id === matchId);
    const ofMatch = spectator.frames.filter((f) => f.data.match?.id === matchId || f.data.match_id === matchId || f.data.message?.match_id === matchId);
    expect(ofMatch.map((f) => f.type)).toEqual(['match.created', 'match.ended']);
    for (const message of sent) expect(messageFrames(await spectatorFrames(stack.app.redis), message.id)).toEqual([]);
    expect(await stack.app.redis.exists(keys.thread('agent', matchId))).toBe(0);
  });

  it('takes a message committed before the unmatch but flushed after it nowhere', async () => {
    const { a, b, matchId } = await matchedPair();
    const match = (await stack.app.matches.find('agent', matchId))!;
    const now = new Date();
    const draft = { match_id: matchId, sender_id: a.user_id, body: 'late', created_at: now.toISOString(), shared_interests_mentioned: [] };
    const outcome = await stack.app.messages.append('agent', match, draft, now);
    const messageId = 'message' in outcome ? outcome.message.id : 0;
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: a.token })).status).toBe(204);

    await stack.app.outbox.sweep(0);
    for (const user of [a, b]) {
      const frames = await userFrames(stack.app.redis, 'agent', user.user_id);
      expect(frames.map((f) => f.type)).toEqual(['match.created', 'match.ended']);
    }
    expect(messageFrames(await spectatorFrames(stack.app.redis), messageId)).toEqual([]);
    expect(await stack.app.redis.hlen(keys.shardOutbox('agent', matchShard(matchId)))).toBe(0);
  });
});
