import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { registerAgent, type Account } from '../support/accounts.js';
import { startStack } from '../support/stack.js';
import { eventually } from '../support/eventually.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

type Entry = { user: { id: number }; shared_interests: string[] };

const isRanked = (account: Account) =>
  stack.app.redis.zscore(keys.rankedFeeds('agent', indexPartition(account.user_id)), String(account.user_id)).then((score) => score !== null);

async function feedEntryFor(viewer: Account, other: Account): Promise<Entry | undefined> {
  const res = await stack.api.get('/api/v1/discovery/feed?limit=100', { token: viewer.token });
  expect(res.status).toBe(200);
  return (res.body.items as Entry[]).find((entry) => entry.user.id === other.user_id);
}

describe('interests matched by meaning', () => {
  it('shows "ML, hiking" and "machine learning, hike" as the same two canonical interests in the profile, the feed, the match and messages', async () => {
    const a = await registerAgent(stack.api, { interests: 'ML, hiking' });
    const b = await registerAgent(stack.api, { interests: ['Machine-Learning', 'Hikes', 'knitting'] });

    expect((await stack.api.get('/api/v1/me', { token: a.token })).body.interests).toEqual(['machine learning', 'hiking']);
    expect((await stack.api.get('/api/v1/me', { token: b.token })).body.interests).toEqual(['machine learning', 'hiking', 'knitting']);

    for (const [viewer, other] of [[a, b], [b, a]] as const) {
      await eventually('the feed to be ranked by the worker', () => isRanked(viewer));
      const entry = await feedEntryFor(viewer, other);
      expect(entry?.shared_interests).toEqual(['machine learning', 'hiking']);
    }

    await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    const back = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
    expect(back.body.matched).toBe(true);
    expect(back.body.match.shared_interests).toEqual(['machine learning', 'hiking']);
    const seenByA = await stack.api.get(`/api/v1/matches/${back.body.match.id}`, { token: a.token });
    expect(seenByA.body.shared_interests).toEqual(['machine learning', 'hiking']);

    const sent = await stack.api.post(`/api/v1/matches/${back.body.match.id}/messages`, { token: a.token, body: { body: 'Any ML talk on the next hike?' } });
    expect(sent.status).toBe(201);
    expect(sent.body.shared_interests_mentioned).toEqual(['machine learning', 'hiking']);
  });

  it('canonicalises a profile update, and browse finds an interest whichever form the filter uses', async () => {
    const c = await registerAgent(stack.api, { interests: 'sci-fi, JS' });
    const d = await registerAgent(stack.api, { interests: 'science fiction' });
    const res = await stack.api.get('/api/v1/discovery/browse?interests=SciFi,javascript&interests_mode=any&limit=100', { token: d.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((item: { id: number }) => item.id)).toContain(c.user_id);
    const updated = await stack.api.patch('/api/v1/me', { token: c.token, body: { interests: 'Runners, jogging, JavaScript' } });
    expect(updated.status).toBe(200);
    expect(updated.body.interests).toEqual(['running', 'javascript']);
  });
});
