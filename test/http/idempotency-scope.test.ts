import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { IDEMPOTENCY_TTL_SECONDS } from '../../src/platform/redis/idempotency-ttl.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const like = (from: SeededAccount, to: number, kind: string, key: string) =>
  stack.api.post(`/api/v1/likes/${to}?kind=${kind}`, { token: from.token, headers: { 'Idempotency-Key': key } });
const send = (from: SeededAccount, matchId: number, body: string, key: string) =>
  stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: from.token, body: { body }, headers: { 'Idempotency-Key': key } });

/** A match between `a` and `b`, made by two likes. */
async function match(a: SeededAccount, b: SeededAccount): Promise<number> {
  await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  const res = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
  expect(res.body.matched).toBe(true);
  return res.body.match.id as number;
}

function expectReused(res: { status: number; body: { error: Record<string, unknown> } }, first: RegExp) {
  expect(res.status).toBe(409);
  expect(res.body.error).toMatchObject({ code: 'idempotency_key_reused', details: [] });
  expect(res.body.error.message).toMatch(first);
  expect(res.body.error.message).toMatch(/new key/);
}

describe('an Idempotency-Key names one request of one account and operation', () => {
  it('a like key sent again for another target is refused with 409, and nothing is written for that target', async () => {
    const [a, b, c] = (await seedAccounts(stack.app, 'agent', 3)) as [SeededAccount, SeededAccount, SeededAccount];
    const key = randomUUID();
    const first = await like(a, b.user_id, 'like', key);
    expect(first.status).toBe(200);

    const other = await like(a, c.user_id, 'like', key);
    expectReused(other, new RegExp(`different target.*likes/${b.user_id}\\?kind=like`));
    expect(await stack.app.redis.hget(keys.swipes('agent', a.user_id), String(c.user_id))).toBeNull();
    expect(await stack.app.redis.hget(keys.pair('agent', a.user_id, c.user_id), String(a.user_id))).toBeNull();
    // another kind for another target: refused as well
    expectReused(await like(a, c.user_id, 'pass', key), /different target/);

    // the first request repeated unchanged replays its answer
    const again = await like(a, b.user_id, 'like', key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('of two requests with one key for two targets at once, one is done and the other refused', async () => {
    const [a, b, c] = (await seedAccounts(stack.app, 'agent', 3)) as [SeededAccount, SeededAccount, SeededAccount];
    const key = randomUUID();
    const results = await Promise.all([like(a, b.user_id, 'like', key), like(a, c.user_id, 'like', key)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const done = results.find((r) => r.status === 200)!.body.like.to_user_id as number;
    const refused = done === b.user_id ? c.user_id : b.user_id;
    expect(await stack.app.redis.hget(keys.swipes('agent', a.user_id), String(done))).toBe('like');
    expect(await stack.app.redis.hget(keys.swipes('agent', a.user_id), String(refused))).toBeNull();
  });

  it('a message key sent again for another match is refused with 409, storing nothing there', async () => {
    const [a, b, c] = (await seedAccounts(stack.app, 'agent', 3)) as [SeededAccount, SeededAccount, SeededAccount];
    const [withB, withC] = await Promise.all([match(a, b), match(a, c)]);
    const key = randomUUID();
    const first = await send(a, withB, 'hello there', key);
    expect(first.status).toBe(201);

    expectReused(await send(a, withC, 'hello there', key), new RegExp(`different target.*matches/${withB}/messages`));
    expectReused(await send(a, withC, 'something else', key), new RegExp(`matches/${withB}/messages and another body`));
    expect((await stack.api.get(`/api/v1/matches/${withC}/messages`, { token: a.token })).body.items).toEqual([]);
    expectReused(await send(a, withB, 'another body', key), /different message body/);

    const again = await send(a, withB, 'hello there', key);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect((await stack.api.get(`/api/v1/matches/${withB}/messages`, { token: a.token })).body.items).toHaveLength(1);
  });

  it('is scoped to the account and the operation: another account, or a message, may use the same key', async () => {
    const [a, b, c] = (await seedAccounts(stack.app, 'agent', 3)) as [SeededAccount, SeededAccount, SeededAccount];
    const matchId = await match(a, b);
    const key = randomUUID();
    const byA = await like(a, c.user_id, 'like', key);
    const byB = await like(b, c.user_id, 'like', key);
    expect([byA.status, byB.status]).toEqual([200, 200]);
    // Each account's like is its own, not a replay of the other's.
    expect(byA.body.like).toMatchObject({ from_user_id: a.user_id, to_user_id: c.user_id, kind: 'like' });
    expect(byB.body.like).toMatchObject({ from_user_id: b.user_id, to_user_id: c.user_id, kind: 'like' });
    const sent = await send(a, matchId, 'same key, another operation', key);
    expect(sent.status).toBe(201);
    expect(sent.body.body).toBe('same key, another operation');
    const thread = await stack.api.get(`/api/v1/matches/${matchId}/messages`, { token: b.token });
    expect(thread.body.items.map((message: { id: number }) => message.id)).toEqual([sent.body.id]);
  });

  it("keeps what a key names no longer than its write's record: the claim expires", async () => {
    const [a, b] = (await seedAccounts(stack.app, 'agent', 2)) as [SeededAccount, SeededAccount];
    const key = randomUUID();
    expect((await like(a, b.user_id, 'like', key)).status).toBe(200);
    const ttl = await stack.app.redis.ttl(keys.idempotencyClaim('agent', a.user_id, 'like', key));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(IDEMPOTENCY_TTL_SECONDS);
  });
});
