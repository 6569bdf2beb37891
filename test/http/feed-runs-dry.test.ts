import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/platform/core/dates.js';
import { keys, PASSES_KEPT } from '../../src/platform/redis/keys.js';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { startStack } from '../support/stack.js';

/** Passes expire after 2 days here (not the default 30), so a pass made 3 days ago is gone and one of 1 day stands. */
const PASS_EXPIRY_DAYS = 2;

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack({ PASS_EXPIRY_DAYS });
});
afterAll(() => stack?.stop());

type FeedPage = { items: Array<{ user: { id: number } }>; next_cursor: string | null; remaining: number; exhausted: boolean };

async function feed(account: Account, limit = 100): Promise<FeedPage> {
  const res = await stack.api.get(`/api/v1/discovery/feed?limit=${limit}`, { token: account.token });
  expect(res.status, res.text).toBe(200);
  return res.body as FeedPage;
}

const ids = (page: FeedPage) => page.items.map((entry) => entry.user.id).sort((a, b) => a - b);

async function swipe(account: Account, target: Account, kind: 'like' | 'pass' | 'super_like') {
  const res = await stack.api.post(`/api/v1/likes/${target.user_id}?kind=${kind}`, { token: account.token });
  expect(res.status, res.text).toBe(200);
}

/** Records the viewer's pass on `target` as made `daysAgo` days ago (what the days of waiting would leave). */
const passedDaysAgo = (viewer: Account, target: Account | number, daysAgo: number) =>
  stack.app.redis.zadd(keys.passes('agent', viewer.user_id), Date.now() - daysAgo * DAY_MS, String(typeof target === 'number' ? target : target.user_id));

describe('a feed that never runs dry', () => {
  // A small pool of its own: four candidates (two sharing the viewer's interest, so the feed has a ranked
  // part and an unranked rest), the viewer, and a member, who is of the other pool and never counts.
  let viewer: Account;
  let others: Account[];

  beforeAll(async () => {
    others = [];
    for (const interests of ['chess', 'chess, tea', 'knitting', '']) others.push(await registerAgent(stack.api, { interests }));
    await registerMember(stack.api, { interests: 'chess' });
    viewer = await registerAgent(stack.api, { interests: 'chess' });
  });

  it('says how many unswiped candidates are left, counting down with each swipe, and exhausted once none is', async () => {
    const first = await feed(viewer);
    expect(ids(first)).toEqual(others.map((o) => o.user_id).sort((a, b) => a - b));
    expect(first).toMatchObject({ remaining: 4, exhausted: false });
    // the count is of the whole feed, not of the page
    expect(await feed(viewer, 1)).toMatchObject({ remaining: 4, exhausted: false, items: [expect.anything()] });

    const kinds = ['like', 'pass', 'super_like', 'pass'] as const;
    for (const [i, kind] of kinds.entries()) {
      await swipe(viewer, others[i]!, kind);
      const page = await feed(viewer);
      expect(page.remaining, `after ${i + 1} swipes`).toBe(3 - i);
      expect(page.items).toHaveLength(3 - i);
      expect(page.exhausted).toBe(i === 3);
    }
    expect(await feed(viewer)).toEqual({ items: [], next_cursor: null, remaining: 0, exhausted: true });
  });

  it('brings a passed candidate back once the pass is older than PASS_EXPIRY_DAYS; a younger pass and a like stay', async () => {
    await passedDaysAgo(viewer, others[1]!, PASS_EXPIRY_DAYS - 1);
    await passedDaysAgo(viewer, others[3]!, PASS_EXPIRY_DAYS + 1);

    const page = await feed(viewer);
    expect(ids(page)).toEqual([others[3]!.user_id]);
    expect(page).toMatchObject({ remaining: 1, exhausted: false });
    expect(await stack.app.redis.hget(keys.swipes('agent', viewer.user_id), String(others[3]!.user_id))).toBeNull();
    expect(await stack.app.redis.zscore(keys.passes('agent', viewer.user_id), String(others[3]!.user_id))).toBeNull();
    // the candidate back can be swiped again like anyone
    await swipe(viewer, others[3]!, 'like');
    expect(await feed(viewer)).toMatchObject({ items: [], remaining: 0, exhausted: true });
  });

  it('times a pass stored before passes had a time at the first feed read: it hides its target, cannot be undone, and expires', async () => {
    // an account whose pass was written by an earlier version (a bare pass, no time) and has not read its feed since
    const account = await registerAgent(stack.api);
    const target = others[0]!;
    await stack.app.redis.hset(keys.swipes('agent', account.user_id), String(target.user_id), 'pass');
    const before = Date.now();
    expect(ids(await feed(account))).not.toContain(target.user_id);
    const after = Date.now();
    // timed as made a day before the read: older than any undo window
    const timedAt = Number(await stack.app.redis.hget(keys.swipes('agent', account.user_id), String(target.user_id)));
    expect(timedAt).toBeGreaterThanOrEqual(before - DAY_MS);
    expect(timedAt).toBeLessThanOrEqual(after - DAY_MS);
    const undo = await stack.api.delete(`/api/v1/likes/${target.user_id}`, { token: account.token });
    expect(undo.status, undo.text).toBe(409);
    expect(undo.body.error).toMatchObject({ code: 'cannot_undo', reason: 'window_passed' });

    await passedDaysAgo(account, target, PASS_EXPIRY_DAYS + 1);
    expect(ids(await feed(account))).toContain(target.user_id);
  });

  it('expires old passes a bounded step per feed read', async () => {
    const account = await registerAgent(stack.api);
    const swipes = keys.swipes('agent', account.user_id);
    // 2,000 expired passes (on ids no account holds; only their number matters), held as their times, and one that stands
    const stale = Array.from({ length: 2_000 }, (_, i) => 900_000 + i);
    const expiredAt = Date.now() - (PASS_EXPIRY_DAYS + 1) * DAY_MS;
    await stack.app.redis.hset(swipes, Object.fromEntries([...stale.map((id, i) => [String(id), String(expiredAt + i)]), ['1', String(Date.now())]]));

    await feed(account);
    const left = await stack.app.redis.hlen(swipes);
    expect(left).toBeGreaterThan(1);
    expect(left).toBeLessThan(2_001);
    // the sweep goes on at the next reads, a page of the swipe list each
    for (let read = 0; read < 40 && (await stack.app.redis.hlen(swipes)) > 1; read++) await feed(account);
    expect(await stack.app.redis.hkeys(swipes)).toEqual(['1']);
  });

  it('folds passes stored before the swipe list held their times, expiring the old ones first, a bounded step per read', async () => {
    const account = await registerAgent(stack.api);
    const swipes = keys.swipes('agent', account.user_id);
    const passes = keys.passes('agent', account.user_id);
    // as stored before: a bare pass in the swipe list, its time in the passes; 250 expired, 300 standing
    const stale = Array.from({ length: 250 }, (_, i) => 900_000 + i);
    const standing = Array.from({ length: 300 }, (_, i) => 950_000 + i);
    const now = Date.now();
    await stack.app.redis.hset(swipes, Object.fromEntries([...stale, ...standing].map((id) => [String(id), 'pass'])));
    await stack.app.redis.zadd(passes, ...stale.flatMap((id, i) => [now - (PASS_EXPIRY_DAYS + 1) * DAY_MS + i, String(id)]));
    await stack.app.redis.zadd(passes, ...standing.flatMap((id, i) => [now - DAY_MS + i, String(id)]));

    await feed(account);
    // the oldest expired passes first, at most 200 of them, and none folded while expired ones are left
    // (the sweep's first page may take a few more of them)
    const oldest = Number((await stack.app.redis.zrange(passes, '0', '0'))[0]);
    expect(oldest).toBeGreaterThanOrEqual(stale[200]!);
    expect(await stack.app.redis.zcard(passes)).toBeGreaterThanOrEqual(300);
    expect(await stack.app.redis.zcard(passes)).toBeLessThanOrEqual(350);
    for (let read = 0; read < 5; read++) await feed(account);
    // the passes keep the newest PASSES_KEPT; every standing pass has its time in the swipe list
    expect(await stack.app.redis.zrange(passes, '0', '-1')).toEqual(standing.slice(-PASSES_KEPT).map(String));
    expect(await stack.app.redis.hlen(swipes)).toBe(300);
    expect(await stack.app.redis.hget(swipes, String(standing[0]))).toBe(String(now - DAY_MS));
    expect(await stack.app.redis.hget(swipes, String(standing[299]))).toBe(String(now - DAY_MS + 299));
  });
});
