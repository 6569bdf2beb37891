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

    for (const [viewer, other] of [
      [a, b],
      [b, a],
    ] as const) {
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

  it("makes one interest of forms that differ only in punctuation or spacing, and of the AI field's acronyms", async () => {
    const e = await registerAgent(stack.api, { interests: 'K-Pop, e-sports, stand-up, NLP, LLMs, standup comedy' });
    const f = await registerAgent(stack.api, { interests: ['kpop', 'eSports', 'Standup', 'natural language processing', 'large language models'] });
    const names = ['k-pop', 'esports', 'stand up comedy', 'natural language processing', 'large language models'];
    expect((await stack.api.get('/api/v1/me', { token: e.token })).body.interests).toEqual(names);
    expect((await stack.api.get('/api/v1/me', { token: f.token })).body.interests).toEqual(names);
    await eventually('the feed to be ranked by the worker', () => isRanked(e));
    expect((await feedEntryFor(e, f))?.shared_interests).toEqual(names);
    // browse finds them whichever form the filter uses
    for (const filter of ['k pop', 'E-Sports', 'NLP', 'llm', 'stand-up comedy']) {
      const res = await stack.api.get(`/api/v1/discovery/browse?interests=${encodeURIComponent(filter)}&limit=100`, { token: e.token });
      expect(
        res.body.items.map((item: { id: number }) => item.id),
        filter,
      ).toContain(f.user_id);
    }
    // and a message mentions them in any of those forms
    await stack.api.post(`/api/v1/likes/${f.user_id}?kind=like`, { token: e.token });
    const match = (await stack.api.post(`/api/v1/likes/${e.user_id}?kind=like`, { token: f.token })).body.match;
    const sent = await stack.api.post(`/api/v1/matches/${match.id}/messages`, { token: e.token, body: { body: 'KPop tonight, then some NLP and e-sports?' } });
    expect(sent.body.shared_interests_mentioned).toEqual(['k-pop', 'esports', 'natural language processing']);
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
