import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, matchPartition } from '../../src/platform/redis/keys.js';
import { matchShard } from '../../src/platform/redis/key-space.js';
import { registerAgent, type Account } from '../support/accounts.js';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

type Who = { token: string; user_id: number };
const like = (from: Who, to: Who, kind = 'like') => stack.api.post(`/api/v1/likes/${to.user_id}?kind=${kind}`, { token: from.token });
const send = (from: Who, matchId: number, body: unknown, headers?: Record<string, string>) =>
  stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: from.token, body: { body }, headers });
const thread = (who: Who, matchId: number, query = '') => stack.api.get(`/api/v1/matches/${matchId}/messages${query}`, { token: who.token });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function matchPair(x: Who, y: Who): Promise<number> {
  await like(x, y);
  const res = await like(y, x);
  expect(res.body.matched).toBe(true);
  return res.body.match.id;
}

/** Every page of a list, following next_cursor. */
async function allPages(who: Who, path: string, limit: number) {
  const pages: JsonResponse['body'][][] = [];
  let cursor: string | null = null;
  do {
    const res: JsonResponse = await stack.api.get(`${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token: who.token });
    expect(res.status).toBe(200);
    pages.push(res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return pages;
}

describe('the whole flow: register, like, like back, match, message both ways, read, unmatch', () => {
  it('works end to end over HTTP', async () => {
    const [a, b]: [Account, Account] = await Promise.all([
      registerAgent(stack.api, { display_name: 'Ada', interests: 'chess, jazz music, go, origami' }),
      registerAgent(stack.api, { display_name: 'Bo', interests: 'jazz music, origami, chess' }),
    ]);
    expect((await like(a, b)).body.matched).toBe(false);
    const back = await like(b, a);
    expect(back.body.matched).toBe(true);
    const matchId: number = back.body.match.id;

    // in both lists, each showing the other
    const listA = await stack.api.get('/api/v1/matches', { token: a.token });
    const listB = await stack.api.get('/api/v1/matches', { token: b.token });
    expect(listA.body).toEqual({
      items: [expect.objectContaining({ id: matchId, user: expect.objectContaining({ id: b.user_id, display_name: 'Bo' }) })],
      next_cursor: null,
    });
    expect(listB.body.items[0]).toMatchObject({ id: matchId, user: { id: a.user_id, display_name: 'Ada' } });
    const one = await stack.api.get(`/api/v1/matches/${matchId}`, { token: a.token });
    expect(one.body).toEqual(listA.body.items[0]);

    // messages both ways
    const sent: JsonResponse['body'][] = [];
    for (let i = 0; i < 25; i++) {
      const from: Account = i % 2 === 0 ? a : b;
      const res = await send(from, matchId, i === 3 ? '  Fancy some JAZZ   music, or chess?  ' : `message ${i}`);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ match_id: matchId, sender_id: from.user_id });
      sent.push(res.body);
    }
    expect(sent[3].body).toBe('Fancy some JAZZ   music, or chess?');
    expect([...sent[3].shared_interests_mentioned].sort()).toEqual(['chess', 'jazz music']);
    expect(sent[4].shared_interests_mentioned).toEqual([]);
    expect(Object.keys(sent[0]).sort()).toEqual(['body', 'created_at', 'id', 'match_id', 'sender_id', 'shared_interests_mentioned']);

    // read with pagination: newest page first, oldest first within a page, cursor towards older
    for (const reader of [a, b]) {
      const pages = await allPages(reader, `/api/v1/matches/${matchId}/messages`, 10);
      expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
      expect(pages[0]!.map((m: { body: string }) => m.body)).toEqual(sent.slice(15).map((m) => m.body));
      expect(pages.reverse().flat()).toEqual(sent);
    }
    const firstPage = await thread(a, matchId);
    expect(firstPage.body.items).toHaveLength(20);

    // the match shows its last message and moves to the top of the list
    const listed = await stack.api.get(`/api/v1/matches/${matchId}`, { token: b.token });
    expect(listed.body.last_message).toEqual(sent.at(-1));

    // unmatch: gone for both, thread closed (410 match_ended to both), never again in a feed or a match
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    for (const who of [a, b] as const) {
      expect((await stack.api.get('/api/v1/matches', { token: who.token })).body).toEqual({ items: [], next_cursor: null });
      expect((await stack.api.get(`/api/v1/matches/${matchId}`, { token: who.token })).status).toBe(410);
      expect((await thread(who, matchId)).status).toBe(410);
      expect((await send(who, matchId, 'hello?')).status).toBe(410);
      expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: who.token })).status).toBe(410);
    }
    expect(await stack.app.redis.exists(keys.thread('agent', matchId))).toBe(0);
    expect(await stack.app.redis.zscore(keys.poolMatches('agent', matchPartition(matchId)), String(matchId))).toBeNull();
    // both keep their swipes on each other, which keeps each out of the other's feed
    expect(await stack.app.redis.hexists(keys.swipes('agent', a.user_id), String(b.user_id))).toBe(1);
    expect(await stack.app.redis.hexists(keys.swipes('agent', b.user_id), String(a.user_id))).toBe(1);
    // liking again does not re-create a match
    expect((await like(a, b, 'super_like')).body).toMatchObject({ matched: false, match: null });
    expect((await like(b, a)).body).toMatchObject({ matched: false, match: null });
  });
});

describe('matches list', () => {
  it('orders by last activity, newest first, and pages with a stable cursor', async () => {
    const [me, ...others] = await seedAccounts(stack.app, 'agent', 8);
    const ids: number[] = [];
    for (const other of others) {
      ids.push(await matchPair(me!, other));
      await sleep(2); // distinct activity times, so the expected order is by time alone
    }
    // a message moves a match to the top
    expect((await send(others[2]!, ids[2]!, 'bump')).status).toBe(201);
    const expected = [ids[2], ...ids.filter((_, i) => i !== 2).reverse()];
    expect((await stack.api.get('/api/v1/matches', { token: me!.token })).body.items.map((m: { id: number }) => m.id)).toEqual(expected);
    const pages = await allPages(me!, '/api/v1/matches', 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((m: { id: number }) => m.id)).toEqual(expected);

    // a match created while paging does not shift the pages after the cursor
    const first = await stack.api.get('/api/v1/matches?limit=3', { token: me!.token });
    const [late] = await seedAccounts(stack.app, 'agent', 1);
    await matchPair(me!, late!);
    const second = await stack.api.get(`/api/v1/matches?limit=3&cursor=${first.body.next_cursor}`, { token: me!.token });
    expect(second.body.items.map((m: { id: number }) => m.id)).toEqual(expected.slice(3, 6));
  });

  it('keeps ties on the activity time in a total order', async () => {
    const [me, ...others] = await seedAccounts(stack.app, 'agent', 6);
    const ids: number[] = [];
    for (const other of others) ids.push(await matchPair(me!, other));
    // the same score for every match: only the id order is left
    for (const id of ids) await stack.app.redis.zadd(keys.userMatches('agent', me!.user_id), 1000, String(id));
    const pages = await allPages(me!, '/api/v1/matches', 2);
    const seen = pages.flat().map((m: { id: number }) => m.id);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(ids.length);
  });
});

describe('errors', () => {
  let a: SeededAccount;
  let b: SeededAccount;
  let stranger: SeededAccount;
  let matchId: number;
  beforeAll(async () => {
    [a, b, stranger] = (await seedAccounts(stack.app, 'agent', 3)) as [SeededAccount, SeededAccount, SeededAccount];
    matchId = await matchPair(a, b);
  });

  it('answers 404 to a non-participant, and for an unknown match', async () => {
    for (const res of [
      await stack.api.get(`/api/v1/matches/${matchId}`, { token: stranger.token }),
      await thread(stranger, matchId),
      await send(stranger, matchId, 'hi'),
      await stack.api.delete(`/api/v1/matches/${matchId}`, { token: stranger.token }),
      await stack.api.get('/api/v1/matches/987654', { token: a.token }),
      await send(a, 987654, 'hi'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      // a user id passed for a match id is the likely mistake: the answer says where match ids come from
      expect(res.body.error.message).toMatch(
        /^No such match of yours with this id\. Pass a match id .*GET \/api\/v1\/matches.*not a user id or a message id: each is counted apart/,
      );
    }
    expect((await stack.api.get('/api/v1/matches/abc', { token: a.token })).status).toBe(400);
    expect((await stack.api.get(`/api/v1/matches/${matchId}`)).status).toBe(401);
  });

  it('say, with the guide and docs/api.md, that match ids and message ids are separate sequences whose numbers may coincide', async () => {
    const { a, b } = { a: await registerAgent(stack.api), b: await registerAgent(stack.api) };
    await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    const matchId = (await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id as number;
    const message = (await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'hello' } })).body;
    // both step by 256 over the same shards: the numbers are alike, and only their kind tells them apart
    expect(matchId % 256).toBe(message.id % 256);
    const wrong = await stack.api.get(`/api/v1/matches/${message.id}`, { token: a.token });
    if (wrong.status === 404) expect(wrong.body.error.message).toMatch(/not a user id or a message id: each is counted apart/);
    const guide = (await stack.api.get('/skill.md')).text;
    expect(guide).toMatch(/Match ids, message ids and user ids are \*\*separate sequences\*\*: one number can be/);
    expect(guide).toMatch(/a new match's id is often its first message's id, and both step by 256/);
    const api = readFileSync(resolve(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');
    expect(api).toMatch(/Each kind has its own sequence, so one number can be a user's, a match's and a\s+message's id at once/);
    expect(api).toMatch(/Match ids and message ids are separate sequences/);
  });

  it('answers 400 to a bad cursor and to a limit out of range', async () => {
    for (const path of ['/api/v1/matches', `/api/v1/matches/${matchId}/messages`]) {
      for (const cursor of ['garbage!', 'bm90IGpzb24', Buffer.from('{"x":1}').toString('base64url'), Buffer.from('-4').toString('base64url')]) {
        const res = await stack.api.get(`${path}?cursor=${encodeURIComponent(cursor)}`, { token: a.token });
        expect(res.status, `${path} ${cursor}`).toBe(400);
        expect(res.body.error.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
      }
      for (const limit of ['0', '101', 'abc', '-1', '2.5', '']) {
        const res = await stack.api.get(`${path}?limit=${limit}`, { token: a.token });
        expect(res.status, `${path} limit=${limit}`).toBe(400);
        expect(res.body.error.details).toEqual([{ field: 'limit', message: expect.any(String) }]);
      }
      for (const limit of ['1', '100']) expect((await stack.api.get(`${path}?limit=${limit}`, { token: a.token })).status).toBe(200);
      const unknown = await stack.api.get(`${path}?sort=asc`, { token: a.token });
      expect(unknown.body.error.details).toEqual([{ field: 'sort', message: 'is not a known parameter; this route takes limit, cursor' }]);
    }
  });

  it('answers 400 to an empty, blank, too long or non-string body, counting characters as code points', async () => {
    for (const body of ['', '   \n ', 'x'.repeat(2001), '😀'.repeat(2001), 42, null]) {
      const res = await send(a, matchId, body);
      expect(res.status, JSON.stringify(body).slice(0, 20)).toBe(400);
      expect(res.body.error.details[0].field).toBe('body');
    }
    const missing = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: {} });
    expect(missing.body.error.details).toEqual([{ field: 'body', message: 'is required' }]);
    expect((await send(a, matchId, '😀'.repeat(2000))).status).toBe(201);
    expect((await send(a, matchId, 'x'.repeat(2000))).status).toBe(201);
  });

  it('stores a body as sent: HTML is text', async () => {
    const hostile = '<img src=x onerror=alert(1)> & <script>alert("x")</script>';
    const res = await send(a, matchId, hostile);
    expect(res.body.body).toBe(hostile);
    const page = await thread(b, matchId, '?limit=1');
    expect(page.body.items[0].body).toBe(hostile);
  });

  it('with an Idempotency-Key, a retry (even a concurrent one) writes the message once', async () => {
    const headers = { 'Idempotency-Key': '5c9e7a13-2f48-4d6b-8e01-b3a4c7d92f65' };
    const [one, two] = await Promise.all([send(a, matchId, 'only once', headers), send(a, matchId, 'only once', headers)]);
    const three = await send(a, matchId, 'only once', headers);
    expect([one.status, two.status, three.status]).toEqual([201, 201, 201]);
    expect(two.body).toEqual(one.body);
    expect(three.body).toEqual(one.body);
    const page = await thread(b, matchId, '?limit=100');
    expect(page.body.items.filter((m: { body: string }) => m.body === 'only once')).toHaveLength(1);
    // the key is the sender's: the other user with the same key sends a new message
    const other = await send(b, matchId, 'only once', headers);
    expect(other.body.id).not.toBe(one.body.id);
  });

  it('refuses an Idempotency-Key sent again with another body with 409, storing nothing', async () => {
    const headers = { 'Idempotency-Key': 'a41b6e0d-97c2-4f35-8d1e-6b2c0f7a9e58' };
    const first = await send(a, matchId, 'first words', headers);
    expect(first.status).toBe(201);
    const reused = await send(a, matchId, 'other words', headers);
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatchObject({ code: 'idempotency_key_reused', message: expect.stringMatching(/different message body.*new key/) });
    const page = await thread(b, matchId, '?limit=100');
    expect(page.body.items.filter((m: { body: string }) => m.body === 'other words')).toHaveLength(0);
    // the same body (after trimming) is the same request
    expect((await send(a, matchId, '  first words  ', headers)).body).toEqual(first.body);
  });

  it('answers a key recorded before request fingerprints were kept with its message, whatever the body', async () => {
    const headers = { 'Idempotency-Key': 'e2c47b90-6a1f-4d38-9b5e-0f7d3a8c2e16' };
    const first = await send(a, matchId, 'from before', headers);
    const key = keys.idempotency('agent', matchShard(matchId), a.user_id, `matches/${matchId}/messages`, headers['Idempotency-Key']);
    await stack.app.redis.set(key, JSON.stringify(first.body), 'EX', 60); // the message alone, as such a record held
    // and no claim of the key in the account's slot, which such a key never had
    await stack.app.redis.del(keys.idempotencyClaim('agent', a.user_id, 'message', headers['Idempotency-Key']));
    const again = await send(a, matchId, 'another body', headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
  });
});
