import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, PASSES_KEPT } from '../../src/platform/redis/keys.js';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { moveMemberIdsAway } from '../support/pool-ids.js';
import { startStack } from '../support/stack.js';

/** One minute here (not the default five), so a pass made two minutes ago is past it. */
const UNDO_WINDOW_SECONDS = 60;

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack({ UNDO_WINDOW_SECONDS });
});
afterAll(() => stack?.stop());

const feedIds = async (account: Account): Promise<number[]> => {
  const res = await stack.api.get('/api/v1/discovery/feed?limit=100', { token: account.token });
  expect(res.status, res.text).toBe(200);
  return res.body.items.map((entry: { user: { id: number } }) => entry.user.id);
};

async function swipe(account: Account, target: Account, kind: 'like' | 'pass' | 'super_like') {
  const res = await stack.api.post(`/api/v1/likes/${target.user_id}?kind=${kind}`, { token: account.token });
  expect(res.status, res.text).toBe(200);
}

const undo = (account: Account, targetId: number | string) => stack.api.delete(`/api/v1/likes/${targetId}`, { token: account.token });

describe('DELETE /api/v1/likes/{user_id}: undo the last pass', () => {
  let viewer: Account;
  let a: Account, b: Account, c: Account, d: Account;

  beforeAll(async () => {
    [a, b, c, d] = [await registerAgent(stack.api), await registerAgent(stack.api), await registerAgent(stack.api), await registerAgent(stack.api)];
    viewer = await registerAgent(stack.api);
  });

  it('undoes the last pass: the candidate is back in the feed at once', async () => {
    const passed = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=pass`, { token: viewer.token });
    expect(passed.body.note).toMatch(/DELETE \/api\/v1\/likes\/\{user_id\} undoes your last pass/);
    expect(await feedIds(viewer)).not.toContain(a.user_id);
    const res = await undo(viewer, a.user_id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ user_id: a.user_id, undone: 'pass', passed_at: expect.any(String), note: expect.stringMatching(/back in your feed/) });
    expect(Date.now() - Date.parse(res.body.passed_at)).toBeLessThan(UNDO_WINDOW_SECONDS * 1000);
    expect(await feedIds(viewer)).toContain(a.user_id);
    // and it is undone once: there is no pass left to undo
    expect((await undo(viewer, a.user_id)).status).toBe(404);
  });

  it('refuses to undo a like or a super like (409 cannot_undo, not_a_pass), which stays', async () => {
    for (const kind of ['like', 'super_like'] as const) {
      await swipe(viewer, b, kind);
      const res = await undo(viewer, b.user_id);
      expect(res.status, res.text).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'cannot_undo', reason: 'not_a_pass', message: expect.stringContaining(`is a ${kind}`) });
      expect(await feedIds(viewer)).not.toContain(b.user_id);
    }
  });

  it('undoes only the most recent pass (409 cannot_undo, not_last_pass, naming the last one)', async () => {
    await swipe(viewer, c, 'pass');
    await swipe(viewer, d, 'pass');
    const older = await undo(viewer, c.user_id);
    expect(older.status, older.text).toBe(409);
    expect(older.body.error).toMatchObject({ code: 'cannot_undo', reason: 'not_last_pass', message: expect.stringContaining(`user ${d.user_id}`) });
    expect(await feedIds(viewer)).not.toContain(c.user_id);
    expect((await undo(viewer, d.user_id)).status).toBe(200);
    expect(await feedIds(viewer)).toContain(d.user_id);
  });

  it('undoes the last of more passes than the passes keep, and an older one pushed out of them is still refused as not the last', async () => {
    const swiper = await registerAgent(stack.api);
    const targets = await Promise.all(Array.from({ length: PASSES_KEPT + 3 }, () => registerAgent(stack.api)));
    for (const target of targets) await swipe(swiper, target, 'pass');
    expect(await stack.app.redis.zcard(keys.passes('agent', swiper.user_id))).toBe(PASSES_KEPT);
    const first = await undo(swiper, targets[0]!.user_id);
    expect(first.status, first.text).toBe(409);
    expect(first.body.error).toMatchObject({ code: 'cannot_undo', reason: 'not_last_pass' });
    expect((await undo(swiper, targets.at(-1)!.user_id)).status).toBe(200);
    // every other pass stands, its time in the swipe list
    expect(await stack.app.redis.hlen(keys.swipes('agent', swiper.user_id))).toBe(targets.length - 1);
  });

  it('refuses a pass older than UNDO_WINDOW_SECONDS (409 cannot_undo, window_passed), which stays', async () => {
    await swipe(viewer, a, 'pass');
    // as if the pass had been made two minutes ago
    await stack.app.redis.zadd(keys.passes('agent', viewer.user_id), Date.now() - 2 * UNDO_WINDOW_SECONDS * 1000, String(a.user_id));
    const res = await undo(viewer, a.user_id);
    expect(res.status, res.text).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'cannot_undo', reason: 'window_passed', message: expect.stringContaining('1 minute') });
    expect(await feedIds(viewer)).not.toContain(a.user_id);
  });

  it('answers 404 for a user never swiped, an unknown id and an id of the other pool; 400 for a malformed id', async () => {
    const stranger = await registerAgent(stack.api);
    expect((await undo(viewer, stranger.user_id)).body.error).toMatchObject({ code: 'not_found' });
    expect((await undo(viewer, 987_654)).status).toBe(404);

    await moveMemberIdsAway(stack.app.redis); // so no member id names an agent too
    const [member, otherMember] = [await registerMember(stack.api), await registerMember(stack.api)];
    await swipe(member, otherMember, 'pass');
    expect((await undo(viewer, otherMember.user_id)).status).toBe(404);
    expect((await undo(member, a.user_id)).status).toBe(404);
    expect((await undo(member, otherMember.user_id)).status).toBe(200);

    const bad = await undo(viewer, 'abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_failed', details: [{ field: 'user_id' }] });
  });

  it('counts an undo against the swipe limit: past it, 429 with Retry-After and nothing undone', async () => {
    const account = await registerAgent(stack.api);
    await swipe(account, a, 'pass');
    // the swipe counter at the limit, as after LIKE_RATE_LIMIT swipes in this window
    await stack.app.redis.set(keys.accountRateLimit('like', 'agent', account.user_id), stack.app.config.LIKE_RATE_LIMIT, 'PX', 60_000);
    const res = await undo(account, a.user_id);
    expect(res.status, res.text).toBe(429);
    expect(res.body.error).toMatchObject({ code: 'rate_limited' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await feedIds(account)).not.toContain(a.user_id);
  });
});
