import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountReadsRepository } from '../../src/features/accounts/account-reads-repository.js';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { DiscoveryIndexRepository } from '../../src/features/discovery/discovery-index-repository.js';
import { FeedRanker } from '../../src/features/discovery/feed-ranker.js';
import { FeedRepository } from '../../src/features/discovery/feed-repository.js';
import { keys } from '../../src/platform/redis/keys.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { matchedPair } from '../support/matched-pair.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';
import { spectatorFrames, userFrames } from '../support/stream-events.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack({ BLOCKS_MAX_PER_ACCOUNT: 3, BLOCK_RATE_LIMIT: 8, SPECTATOR_CACHE_MS: 0 });
});
afterAll(() => stack?.stop());

const block = (who: SeededAccount, target: number) => stack.api.post(`/api/v1/blocks/${target}`, { token: who.token });
const unblock = (who: SeededAccount, target: number) => stack.api.delete(`/api/v1/blocks/${target}`, { token: who.token });
const like = (who: SeededAccount, target: number, kind = 'like') => stack.api.post(`/api/v1/likes/${target}?kind=${kind}`, { token: who.token });

/** A swipe answered exactly as one on an id nobody holds (404, the same body but its request id). */
async function expectAsUnknown(swipe: ReturnType<typeof like>) {
  const res = await swipe;
  const unknown = await stack.api.post('/api/v1/likes/987654321?kind=like', { token: (await seedAccounts(stack.app, 'agent', 1))[0]!.token });
  expect(res.status).toBe(404);
  const { request_id: _own, ...body } = res.body.error;
  const { request_id: _theirs, ...expected } = unknown.body.error;
  expect(body).toEqual(expected);
}

/** Two agents of an interest no one else holds (so each is in the other's ranked feed and a filtered browse). */
async function pairSharing(): Promise<{ a: SeededAccount; b: SeededAccount; interest: string }> {
  const interest = `blockable${Math.random().toString(36).slice(2, 8)}`;
  const [a, b] = (await seedAccounts(stack.app, 'agent', 2, [interest, 'chess'])) as [SeededAccount, SeededAccount];
  return { a, b, interest };
}

/** Every id of the viewer's feed, all pages. */
async function feedIds(viewer: SeededAccount): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  do {
    const res: JsonResponse = await stack.api.get(`/api/v1/discovery/feed?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: viewer.token });
    expect(res.status).toBe(200);
    ids.push(...res.body.items.map((item: { user: { id: number } }) => item.user.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  return ids;
}

/** Every id browse shows the viewer among holders of `interest`, all pages. */
async function browseIds(viewer: SeededAccount, interest: string): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  do {
    const res: JsonResponse = await stack.api.get(`/api/v1/discovery/browse?interests=${interest}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
      token: viewer.token,
    });
    expect(res.status).toBe(200);
    ids.push(...res.body.items.map((user: { id: number }) => user.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  return ids;
}

describe('POST /api/v1/blocks/{user_id}', () => {
  it("takes the two out of each other's feed and browse, both ways, until unblocked", async () => {
    const { a, b, interest } = await pairSharing();
    expect(await feedIds(a)).toContain(b.user_id);
    expect(await feedIds(b)).toContain(a.user_id);
    expect(await browseIds(a, interest)).toEqual([b.user_id]);
    expect(await browseIds(b, interest)).toEqual([a.user_id]);

    const res = await block(a, b.user_id);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ user_id: b.user_id, blocked_at: expect.any(String) });
    for (const [viewer, other] of [
      [a, b],
      [b, a],
    ] as const) {
      expect(await feedIds(viewer)).not.toContain(other.user_id);
      expect(await browseIds(viewer, interest)).toEqual([]);
    }

    expect((await unblock(a, b.user_id)).status).toBe(204);
    expect(await browseIds(a, interest)).toEqual([b.user_id]);
    expect(await browseIds(b, interest)).toEqual([a.user_id]);
    expect(await feedIds(a)).toContain(b.user_id);
    expect(await feedIds(b)).toContain(a.user_id);
  });

  it('keeps the two apart while either still blocks the other', async () => {
    const { a, b, interest } = await pairSharing();
    expect((await block(a, b.user_id)).status).toBe(201);
    expect((await block(b, a.user_id)).status).toBe(201);
    expect((await unblock(a, b.user_id)).status).toBe(204);
    expect(await browseIds(a, interest)).toEqual([]);
    expect(await browseIds(b, interest)).toEqual([]);
    await expectAsUnknown(like(a, b.user_id));
    await expectAsUnknown(like(b, a.user_id));
    expect((await unblock(b, a.user_id)).status).toBe(204);
    expect(await browseIds(a, interest)).toEqual([b.user_id]);
    expect(await browseIds(b, interest)).toEqual([a.user_id]);
    for (const who of [a, b]) expect(await stack.app.redis.exists(keys.hidden('agent', who.user_id))).toBe(0);
  });

  it("keeps the two out of each other's ranked feed through later rankings and spreads", async () => {
    const { a, b } = await pairSharing();
    const index = new DiscoveryIndexRepository(stack.app.redis, stack.app.scripts, new AccountReadsRepository(stack.app.redis, stack.app.scripts));
    const ranker = new FeedRanker(index, new FeedRepository(stack.app.redis, stack.app.scripts));
    const ranked = (owner: SeededAccount, other: SeededAccount) => stack.app.redis.zscore(keys.feed('agent', owner.user_id), String(other.user_id));
    for (const who of [a, b]) await ranker.refresh('agent', who.user_id);
    expect(await ranked(a, b)).not.toBeNull();
    expect(await ranked(b, a)).not.toBeNull();

    expect((await block(a, b.user_id)).status).toBe(201);
    expect(await ranked(a, b)).toBeNull();
    expect(await ranked(b, a)).toBeNull();
    // each ranked again (its own feed) and spread into the other's (as after a profile change)
    for (const who of [a, b, a]) await ranker.refresh('agent', who.user_id);
    expect(await ranked(a, b)).toBeNull();
    expect(await ranked(b, a)).toBeNull();
  });

  it('answers their swipes on each other as on an unknown id (404, the same body), never a match, never a notification', async () => {
    const { a, b } = await pairSharing();
    expect((await like(a, b.user_id)).body).toMatchObject({ matched: false, outcome: 'recorded' });
    expect((await block(b, a.user_id)).status).toBe(201);
    for (const [from, to] of [
      [b, a],
      [a, b],
    ] as const) {
      for (const kind of ['like', 'super_like', 'pass']) await expectAsUnknown(like(from, to.user_id, kind));
    }
    expect((await stack.api.get('/api/v1/matches', { token: a.token })).body.items).toEqual([]);
    for (const who of [a, b]) {
      expect((await userFrames(stack.app.redis, 'agent', who.user_id)).map((frame) => frame.type)).not.toContain('like.received');
    }
    // b's likes made during the block were not recorded: after it, a's like makes no match until b likes again.
    expect((await unblock(b, a.user_id)).status).toBe(204);
    expect((await like(a, b.user_id)).body).toMatchObject({ matched: false, outcome: 'recorded' });
    expect((await like(b, a.user_id)).body).toMatchObject({ matched: true, outcome: 'matched' });
  });

  it('leaves no match when a like back races the block', async () => {
    for (let i = 0; i < 5; i++) {
      const { a, b } = await pairSharing();
      expect((await like(a, b.user_id)).body.matched).toBe(false);
      const [blocked, liked] = await Promise.all([block(b, a.user_id), like(b, a.user_id)]);
      expect(blocked.status).toBe(201);
      // Answered before the block (a swipe, maybe a match the block then ends) or after it (as on an unknown id).
      expect([200, 404]).toContain(liked.status);
      for (const who of [a, b]) {
        await eventually('no current match', async () => (await stack.api.get('/api/v1/matches', { token: who.token })).body.items.length === 0);
      }
    }
  });

  it('ends their match for both as an unmatch does: events, lists, spectators, and no more messages', async () => {
    const { a, b, matchId } = await matchedPair(stack);
    expect((await stack.api.get('/api/v1/spectator/matches')).body.items.map((m: { id: number }) => m.id)).toContain(matchId);
    expect((await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'hello' } })).status).toBe(201);

    const sockets = await Promise.all([a, b].map((who) => EventSocket.open(stack.baseUrl, '/api/v1/ws?since=0', { token: who.token })));
    const spectator = await EventSocket.open(stack.baseUrl, '/api/v1/spectator/stream?since=0');
    try {
      expect((await block(b, a.user_id)).status).toBe(201);
      for (const socket of [...sockets, spectator]) {
        await socket.waitForFrame((frame) => frame.type === 'match.ended' && frame.data.match_id === matchId);
      }
    } finally {
      for (const socket of [...sockets, spectator]) socket.ws.close();
    }
    for (const who of [a, b]) {
      const ended = await eventually('match.ended in the stream', async () =>
        (await userFrames(stack.app.redis, 'agent', who.user_id)).find((frame) => frame.type === 'match.ended' && frame.data.match_id === matchId),
      );
      expect(ended).toBeTruthy();
      expect((await stack.api.get('/api/v1/matches', { token: who.token })).body.items).toEqual([]);
      const sent = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: who.token, body: { body: 'still there?' } });
      expect(sent.status).toBe(410);
      expect(sent.body.error.code).toBe('match_ended');
    }
    expect((await spectatorFrames(stack.app.redis)).some((frame) => frame.type === 'match.ended' && frame.data.match_id === matchId)).toBe(true);
    expect((await stack.api.get('/api/v1/spectator/matches')).body.items.map((m: { id: number }) => m.id)).not.toContain(matchId);
    // Unblocking does not bring the match back.
    expect((await unblock(b, a.user_id)).status).toBe(204);
    expect((await like(a, b.user_id)).body).toMatchObject({ matched: false, match: null });
  });

  it("answers each one's profile of the other exactly as an unknown id's, both ways, until unblocked", async () => {
    const { a, b } = await pairSharing();
    const profile = (viewer: SeededAccount, id: number) => stack.api.get(`/api/v1/users/${id}`, { token: viewer.token });
    const unknown = await profile(b, 999_999_999);
    expect(unknown.status).toBe(404);
    expect((await profile(b, a.user_id)).status).toBe(200);

    expect((await block(a, b.user_id)).status).toBe(201);
    for (const [viewer, other] of [
      [b, a],
      [a, b],
    ] as const) {
      const res = await profile(viewer, other.user_id);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual(unknown.body.error);
    }
    expect((await unblock(a, b.user_id)).status).toBe(204);
    for (const [viewer, other] of [
      [b, a],
      [a, b],
    ] as const)
      expect((await profile(viewer, other.user_id)).body.id).toBe(other.user_id);
  });

  it("counts in the feed's remaining no account a block hides from the reader, either way", async () => {
    const [viewer, blocked, blocker] = (await seedAccounts(stack.app, 'agent', 3)) as [SeededAccount, SeededAccount, SeededAccount];
    const remaining = async () => (await stack.api.get('/api/v1/discovery/feed?limit=1', { token: viewer.token })).body.remaining as number;
    const before = await remaining();
    expect(before).toBe((await feedIds(viewer)).length);

    expect((await block(viewer, blocked.user_id)).status).toBe(201);
    expect((await block(blocker, viewer.user_id)).status).toBe(201);
    const shown = await feedIds(viewer);
    expect(shown).not.toContain(blocked.user_id);
    expect(shown).not.toContain(blocker.user_id);
    // as if both had left: what remains is what the feed shows
    expect(await remaining()).toBe(shown.length);
    expect(shown.length).toBe(before - 2);
  });

  it('is idempotent, listed newest first in pages, and undone by DELETE (404 when there is no block)', async () => {
    const [me, x, y, z] = await seedAccounts(stack.app, 'agent', 4);
    for (const other of [x!, y!, z!]) expect((await block(me!, other.user_id)).status).toBe(201);
    const again = await block(me!, y!.user_id);
    expect(again.status).toBe(200);
    const first = await stack.api.get('/api/v1/blocks?limit=2', { token: me!.token });
    expect(first.status).toBe(200);
    const second = await stack.api.get(`/api/v1/blocks?limit=2&cursor=${first.body.next_cursor}`, { token: me!.token });
    expect(second.body.next_cursor).toBeNull();
    const listed = [...first.body.items, ...second.body.items];
    expect(listed.map((item: { user_id: number }) => item.user_id).sort()).toEqual([x!.user_id, y!.user_id, z!.user_id].sort());
    expect(listed.find((item: { user_id: number }) => item.user_id === y!.user_id).blocked_at).toBe(again.body.blocked_at);
    const times = listed.map((item: { blocked_at: string }) => item.blocked_at);
    expect([...times].sort().reverse()).toEqual(times);

    expect((await unblock(me!, x!.user_id)).status).toBe(204);
    const gone = await unblock(me!, x!.user_id);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    expect((await stack.api.get('/api/v1/blocks', { token: me!.token })).body.items.map((item: { user_id: number }) => item.user_id)).not.toContain(x!.user_id);
    expect((await stack.api.get('/api/v1/blocks', { token: x!.token })).body).toEqual({ items: [], next_cursor: null });
  });

  it('completes a block interrupted after its first step when it is sent again', async () => {
    const { a, b, interest } = await pairSharing();
    expect((await block(a, b.user_id)).status).toBe(201);
    // as if the process had died right after listing the block: the pair's flag and b's mark are not written
    await stack.app.redis.hdel(keys.pair('agent', a.user_id, b.user_id), `block:${a.user_id}`);
    await stack.app.redis.del(keys.hidden('agent', b.user_id));
    expect(await browseIds(b, interest)).toEqual([a.user_id]);
    expect((await block(a, b.user_id)).status).toBe(200);
    expect(await browseIds(b, interest)).toEqual([]);
    await expectAsUnknown(like(a, b.user_id));
    await expectAsUnknown(like(b, a.user_id));
  });

  it('refuses oneself and a malformed id with 400, an unknown account with 404', async () => {
    const [me] = await seedAccounts(stack.app, 'agent', 1);
    for (const path of [`/api/v1/blocks/${me!.user_id}`, '/api/v1/blocks/abc', '/api/v1/blocks/0']) {
      const res = await stack.api.post(path, { token: me!.token });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const unknown = await block(me!, 9_000_000_000);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await unblock(me!, 9_000_000_000)).status).toBe(404);
  });

  it('caps the blocks of an account (BLOCKS_MAX_PER_ACCOUNT) with a clear 400', async () => {
    const [me, ...others] = await seedAccounts(stack.app, 'agent', 5);
    for (const other of others.slice(0, 3)) expect((await block(me!, other.user_id)).status).toBe(201);
    const full = await block(me!, others[3]!.user_id);
    expect(full.status).toBe(400);
    expect(full.body.error.message).toMatch(/already block 3 accounts/);
    expect((await block(me!, others[0]!.user_id)).status).toBe(200);
    expect((await unblock(me!, others[0]!.user_id)).status).toBe(204);
    expect((await block(me!, others[3]!.user_id)).status).toBe(201);
  });

  it('limits blocks and unblocks per account with 429 and Retry-After', async () => {
    const [me, other] = await seedAccounts(stack.app, 'agent', 2);
    for (let i = 0; i < 4; i++) {
      expect((await block(me!, other!.user_id)).status).toBeLessThan(300);
      expect((await unblock(me!, other!.user_id)).status).toBe(204);
    }
    const res = await block(me!, other!.user_id);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
