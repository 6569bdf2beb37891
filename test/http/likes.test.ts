import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { seedAccounts } from '../support/seeded-accounts.js';
import { moveMemberIdsAway } from '../support/pool-ids.js';
import { startStack } from '../support/stack.js';
import { poolMatchIds } from '../support/pool-matches.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const like = (from: { token: string }, to: number | string, kind: string | null = 'like', headers?: Record<string, string>) =>
  stack.api.post(`/api/v1/likes/${to}${kind === null ? '' : `?kind=${kind}`}`, { token: from.token, headers });

describe('POST /api/v1/likes/{user_id}', () => {
  let a: Account;
  let b: Account;
  beforeAll(async () => {
    [a, b] = await Promise.all([
      registerAgent(stack.api, { interests: 'chess, jazz music, go' }),
      registerAgent(stack.api, { interests: 'go, jazz music, origami' }),
    ]);
  });

  it('records a like without a match, then a like back creates the match with the shared interests', async () => {
    const first = await like(a, b.user_id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      like: { from_user_id: a.user_id, to_user_id: b.user_id, kind: 'like', created_at: expect.any(String) },
      matched: false,
      match: null,
      outcome: 'recorded',
      note: expect.stringMatching(/likes you back/),
    });
    expect(new Date(first.body.like.created_at).toISOString()).toBe(first.body.like.created_at);

    const back = await like(b, a.user_id, 'super_like');
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ matched: true, outcome: 'matched' });
    expect(back.body.like.kind).toBe('super_like');
    const match = back.body.match;
    expect(match).toMatchObject({ id: expect.any(Number), created_at: expect.any(String), last_message: null });
    // the lower id's order
    expect(match.shared_interests).toEqual(a.user_id < b.user_id ? ['jazz music', 'go'] : ['go', 'jazz music']);
    expect(match.user.id).toBe(a.user_id);
    expect(Object.keys(match.user).sort()).toEqual(['age', 'bio', 'city', 'created_at', 'display_name', 'gender', 'id', 'interests', 'state', 'theme_id']);

    // liking an already matched user returns that match
    const again = await like(a, b.user_id);
    expect(again.body).toMatchObject({ matched: true, outcome: 'already_matched', note: expect.stringMatching(/already matched/) });
    expect(again.body.match.id).toBe(match.id);
    expect(again.body.match.user.id).toBe(b.user_id);
    expect((await stack.api.get('/api/v1/matches', { token: a.token })).body.items.map((m: { id: number }) => m.id)).toEqual([match.id]);
  });

  it("removes the target from the swiper's feed and records it in the swipes hash at once", async () => {
    const [c, d] = await seedAccounts(stack.app, 'agent', 2);
    await stack.app.redis.zadd(keys.feed('agent', c!.user_id), 5, String(d!.user_id));
    expect((await like(c!, d!.user_id, 'pass')).status).toBe(200);
    expect(await stack.app.redis.zscore(keys.feed('agent', c!.user_id), String(d!.user_id))).toBeNull();
    expect(await stack.app.redis.hkeys(keys.swipes('agent', c!.user_id))).toEqual([String(d!.user_id)]);
  });

  it('lets the latest swipe win', async () => {
    const [c, d] = await seedAccounts(stack.app, 'agent', 2);
    await like(c!, d!.user_id, 'like');
    await like(c!, d!.user_id, 'pass');
    const back = await like(d!, c!.user_id, 'like');
    expect(back.body).toMatchObject({ matched: false, match: null });
    const changed = await like(c!, d!.user_id, 'like');
    expect(changed.body.matched).toBe(true);
    expect(changed.body.match.user.id).toBe(d!.user_id);
    // a pass on a matched user is recorded, but does not unmatch
    const pass = await like(d!, c!.user_id, 'pass');
    expect(pass.body).toMatchObject({ like: { kind: 'pass' }, matched: false, match: null, outcome: 'match_kept' });
    // the answer says the match stays, and how to end it
    expect(pass.body.note).toContain(`DELETE /api/v1/matches/${changed.body.match.id}`);
    expect((await stack.api.get(`/api/v1/matches/${changed.body.match.id}`, { token: d!.token })).status).toBe(200);
    // a pass with no match is only a pass
    const [e, f] = await seedAccounts(stack.app, 'agent', 2);
    expect((await like(e!, f!.user_id, 'pass')).body).toMatchObject({ matched: false, outcome: 'recorded', note: expect.stringMatching(/pass is recorded/) });
  });

  it('decides every swipe after a first pass on the pair as before: a pass, then likes both ways match; passes on a match keep it', async () => {
    const [c, d] = await seedAccounts(stack.app, 'agent', 2);
    // a first pass is kept in the swiper's own keys only
    expect((await like(c!, d!.user_id, 'pass')).body).toMatchObject({ outcome: 'recorded', matched: false });
    expect(await stack.app.redis.hget(keys.pair('agent', c!.user_id, d!.user_id), String(c!.user_id))).toBeNull();
    // a pass is held in the swipe list as its time, and is the newest in the passes
    const passedAt = await stack.app.redis.hget(keys.swipes('agent', c!.user_id), String(d!.user_id));
    expect(passedAt).toMatch(/^\d{13}$/);
    expect(await stack.app.redis.zscore(keys.passes('agent', c!.user_id), String(d!.user_id))).toBe(passedAt);
    expect((await like(d!, c!.user_id)).body).toMatchObject({ outcome: 'recorded', matched: false });
    const matched = await like(c!, d!.user_id, 'super_like');
    expect(matched.body).toMatchObject({ outcome: 'matched', matched: true });
    for (let i = 0; i < 2; i++) expect((await like(c!, d!.user_id, 'pass')).body).toMatchObject({ outcome: 'match_kept' });
    expect(await stack.app.redis.hget(keys.pair('agent', c!.user_id, d!.user_id), String(c!.user_id))).toBe('pass');
  });

  it('says so when a like after an unmatch changes nothing: the pair never matches again', async () => {
    const [c, d] = await seedAccounts(stack.app, 'agent', 2);
    await like(c!, d!.user_id);
    const matchId = (await like(d!, c!.user_id)).body.match.id;
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: c!.token })).status).toBe(204);
    for (const [from, to] of [
      [c!, d!],
      [d!, c!],
    ] as const) {
      const again = await like(from, to.user_id, 'super_like');
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ matched: false, match: null, outcome: 'pair_ended', note: expect.stringMatching(/never matches again/) });
    }
    expect(await stack.app.redis.zcard(keys.userMatches('agent', c!.user_id))).toBe(0);
  });

  it('answers 400 for a bad or missing kind, an unknown parameter, a bad id, and a swipe on yourself', async () => {
    for (const kind of [null, '', 'love', 'LIKE']) {
      const res = await like(a, b.user_id, kind);
      expect(res.status, String(kind)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details).toEqual([{ field: 'kind', message: expect.any(String) }]);
    }
    const extra = await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like&force=1`, { token: a.token });
    expect(extra.status).toBe(400);
    // it names what the route takes instead
    expect(extra.body.error.details).toEqual([{ field: 'force', message: 'is not a known parameter; this route takes kind' }]);
    // kind sent in a JSON body: the answer points to the query parameter
    const inBody = await stack.api.post(`/api/v1/likes/${b.user_id}`, { token: a.token, body: { kind: 'like' } });
    expect(inBody.status).toBe(400);
    expect(inBody.body.error.message).toBe(
      'Invalid request: kind is required as a query parameter, one of like, pass, super_like: add ?kind=like to the URL (not the JSON body).',
    );
    for (const id of ['abc', '0', '-1', '1.5']) {
      const res = await like(a, id);
      expect(res.status, id).toBe(400);
      expect(res.body.error.details[0].field).toBe('user_id');
    }
    const self = await like(a, a.user_id);
    expect(self.status).toBe(400);
    expect(self.body.error.details[0].field).toBe('user_id');
    // one wording for every validation_failed, wherever it is raised
    for (const res of [self, extra, await like(a, 'abc')]) expect(res.body.error.message).toMatch(/^Invalid request: \S+ .+\.$/);
  });

  it('answers 404 for an unknown target and for a target in the other pool, writing nothing', async () => {
    await moveMemberIdsAway(stack.app.redis); // so the member's id names no agent
    const member = await registerMember(stack.api);
    expect((await like(a, 999_999)).status).toBe(404);
    const cross = await like(a, member.user_id);
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe('not_found');
    expect(cross.body.error.message).toMatch(/user id .*not a match id/);
    expect((await like(member, a.user_id)).status).toBe(404);
    expect(await stack.app.redis.hexists(keys.swipes('agent', a.user_id), String(member.user_id))).toBe(0);
    expect(await stack.app.redis.hexists(keys.swipes('member', member.user_id), String(a.user_id))).toBe(0);
  });

  it('needs a token', async () => {
    expect((await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`)).status).toBe(401);
  });

  it('with an Idempotency-Key, a retry (even a concurrent one) writes once and returns the first result', async () => {
    const [c, d] = await seedAccounts(stack.app, 'agent', 2);
    await like(d!, c!.user_id);
    const headers = { 'Idempotency-Key': '3f1c2a9e-5b7d-4e21-9c0a-6d8e2f4b1a07' };
    const results = await Promise.all([like(c!, d!.user_id, 'like', headers), like(c!, d!.user_id, 'like', headers)]);
    const retried = await like(c!, d!.user_id, 'like', headers);
    for (const res of [...results, retried]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(results[0].body);
    }
    expect(results[0].body.matched).toBe(true);
    expect(await stack.app.redis.zcard(keys.userMatches('agent', c!.user_id))).toBe(1);
    // another key is another request
    expect((await like(c!, d!.user_id, 'pass', { 'Idempotency-Key': '0b7e4d52-8a31-4f6c-b2d9-1e5a7c3f9d48' })).body.like.kind).toBe('pass');
    expect((await like(c!, d!.user_id, 'like', { 'Idempotency-Key': 'has space' })).status).toBe(400);
  });

  it('refuses an Idempotency-Key sent again with another kind with 409, writing nothing', async () => {
    const [c, d] = await seedAccounts(stack.app, 'agent', 2);
    const headers = { 'Idempotency-Key': '9d2f6b1e-3c4a-4b8e-a7d5-2e9c1f0b6a34' };
    expect((await like(c!, d!.user_id, 'like', headers)).status).toBe(200);
    const reused = await like(c!, d!.user_id, 'pass', headers);
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    expect(reused.body.error.message).toMatch(/kind=like.*new key/);
    expect(await stack.app.redis.hget(keys.swipes('agent', c!.user_id), String(d!.user_id))).toBe('like');
    // the first request repeated unchanged still gets its answer
    expect((await like(c!, d!.user_id, 'like', headers)).body).toMatchObject({ like: { kind: 'like' }, outcome: 'recorded' });
  });

  it('creates exactly one match per pair when 200 pairs like each other at the same instant', async () => {
    const accounts = await seedAccounts(stack.app, 'agent', 400);
    const pairs = Array.from({ length: 200 }, (_, i) => [accounts[2 * i]!, accounts[2 * i + 1]!] as const);
    const before = (await poolMatchIds(stack.app.redis, 'agent')).length;
    const responses = await Promise.all(pairs.flatMap(([x, y]) => [like(x, y.user_id), like(y, x.user_id, 'super_like')]));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    for (let i = 0; i < 200; i++) {
      const [first, second] = [responses[2 * i]!.body, responses[2 * i + 1]!.body];
      // the likes of a pair are serialised: exactly one of the two saw the other's like
      expect([first, second].filter((r) => r.matched)).toHaveLength(1);
    }
    expect((await poolMatchIds(stack.app.redis, 'agent')).length - before).toBe(200);
    const lists = await Promise.all(accounts.map((x) => stack.app.redis.zcard(keys.userMatches('agent', x.user_id))));
    expect(lists.every((n) => n === 1)).toBe(true);
  });
});
