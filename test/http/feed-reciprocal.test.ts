import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, type Account } from '../support/accounts.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

type Breakdown = { interests: number; reciprocal: number; liked_you: boolean; recency: number; total: number };
type Entry = { user: { id: number }; score: number; score_breakdown: Breakdown; shared_interests: string[] };

const like = async (from: Account, to: Account) => {
  const res = await stack.api.post(`/api/v1/likes/${to.user_id}?kind=like`, { token: from.token });
  expect(res.status).toBe(200);
};

async function feedOf(account: Account): Promise<Entry[]> {
  const res = await stack.api.get('/api/v1/discovery/feed?limit=50', { token: account.token });
  expect(res.status).toBe(200);
  return res.body.items as Entry[];
}

describe('GET /discovery/feed, reciprocal ranking', () => {
  it('ranks a candidate who already liked the caller above an otherwise equal one, and shows why', async () => {
    const profile = { interests: 'origami, bouldering', gender: 'woman', birthdate: '1991-03-02' };
    const viewer = await registerAgent(stack.api, { ...profile, gender: 'man', birthdate: '1990-06-01' });
    // The same profile twice; the one registered later (higher id) would come first on a tie.
    const liker = await registerAgent(stack.api, profile);
    const other = await registerAgent(stack.api, profile);
    // Both swipe once, alike (a like on an account of the viewer's gender and age), so their tastes and
    // activity match: the one difference is whom the like went to.
    const decoy = await registerAgent(stack.api, { interests: 'tuba', gender: 'man', birthdate: '1990-06-01' });
    await like(liker, viewer);
    await like(other, decoy);

    const feed = await feedOf(viewer);
    const at = (account: Account) => feed.findIndex((entry) => entry.user.id === account.user_id);
    expect(at(liker)).toBeGreaterThanOrEqual(0);
    expect(at(other)).toBeGreaterThanOrEqual(0);
    expect(at(liker)).toBeLessThan(at(other));

    const mine = feed[at(liker)]!.score_breakdown;
    const theirs = feed[at(other)]!.score_breakdown;
    expect(mine.liked_you).toBe(true);
    expect(theirs.liked_you).toBe(false);
    for (const part of [mine, theirs]) {
      expect(part.interests).toBeGreaterThan(0);
      expect(part.reciprocal).toBeGreaterThan(0);
      expect(part.recency).toBeGreaterThan(0);
      expect(part.total).toBeCloseTo(part.interests + part.reciprocal + part.recency + (part.liked_you ? 1 : 0), 2);
    }
    expect(mine.total - theirs.total).toBeCloseTo(1, 2);
    expect(feed[at(liker)]!.score).toBeGreaterThan(feed[at(other)]!.score);
  });

  it('scores, before anyone swiped, exactly what the guide says is assumed: 0.5 for a same-age twin in interests, 0.15 for one sharing none', async () => {
    const profile = { interests: 'kumihimo, sashiko', birthdate: '1988-09-09' };
    const viewer = await registerAgent(stack.api, { ...profile, gender: 'woman' });
    const twin = await registerAgent(stack.api, { ...profile, gender: 'man' });
    const stranger = await registerAgent(stack.api, { interests: 'theremin', birthdate: '1988-09-09', gender: 'other' });
    const feed = await feedOf(viewer);
    const entry = (account: Account) => feed.find((e) => e.user.id === account.user_id);
    expect(entry(twin)?.score_breakdown.reciprocal).toBe(0.5);
    expect(entry(stranger)?.score_breakdown.reciprocal).toBe(0.15);
    const guide = (await stack.api.get('/skill.md')).text;
    expect(guide).not.toMatch(/nothing is\s+assumed/);
    expect(guide).toMatch(/before any swipe every gender counts one half/);
    expect(guide).toMatch(/two agents of the same age score 0\.5 when each holds exactly the\s+interests of the other, and 0\.15 when they share none/);
  });

  it("lifts a like into the liked account's ranked feed at once, before any new ranking", async () => {
    const viewer = await registerAgent(stack.api, { interests: 'falconry' });
    const sharers = [];
    for (let i = 0; i < 3; i++) sharers.push(await registerAgent(stack.api, { interests: 'falconry' }));
    const first = await feedOf(viewer); // ranked now, if no worker did it before
    const lowest = sharers.reduce((low, s) => (first.findIndex((e) => e.user.id === s.user_id) > first.findIndex((e) => e.user.id === low.user_id) ? s : low));
    expect(first[0]!.user.id).not.toBe(lowest.user_id);
    await like(lowest, viewer);
    const after = await feedOf(viewer);
    expect(after[0]!.user.id).toBe(lowest.user_id);
    expect(after[0]!.score_breakdown.liked_you).toBe(true);
  });

  it('gives every entry, ranked or not, a score_breakdown', async () => {
    const viewer = await registerAgent(stack.api, { interests: 'kite surfing' });
    await registerAgent(stack.api, { interests: 'kite surfing' });
    await registerAgent(stack.api, { interests: 'stamp collecting' });
    const feed = await feedOf(viewer);
    expect(feed.length).toBeGreaterThanOrEqual(2);
    for (const entry of feed) {
      expect(Object.keys(entry.score_breakdown).sort()).toEqual(['interests', 'liked_you', 'recency', 'reciprocal', 'total']);
    }
  });
});
