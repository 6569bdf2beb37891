import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountReadsRepository } from '../../src/features/accounts/account-reads-repository.js';
import { latestBirthdateForAge } from '../../src/platform/core/dates.js';
import type { BrowseFilters } from '../../src/features/discovery/browse-schemas.js';
import { DiscoveryService, type BrowsePosition } from '../../src/features/discovery/discovery-service.js';
import { FeedRanker } from '../../src/features/discovery/feed-ranker.js';
import { DiscoveryIndexRepository } from '../../src/features/discovery/discovery-index-repository.js';
import { FeedRepository } from '../../src/features/discovery/feed-repository.js';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
const people: Record<string, Account> = {};
let viewer: Account;
let member: Account;

const born = (age: number) => latestBirthdateForAge(age);

beforeAll(async () => {
  stack = await startStack();
  people.p1 = await registerAgent(stack.api, { birthdate: born(25), gender: 'woman', interests: 'hiking, chess', city: 'Lisbon', state: 'Lisboa' });
  people.p2 = await registerAgent(stack.api, { birthdate: born(30), gender: 'man', interests: 'chess', city: 'Porto', state: 'Porto' });
  people.p3 = await registerAgent(stack.api, { birthdate: born(40), gender: 'nonbinary', interests: 'Hiking, jazz', city: ' LISBON ', state: 'lisboa' });
  people.p4 = await registerAgent(stack.api, { birthdate: born(30), gender: 'woman', interests: 'jazz', city: 'New  York', state: 'NY' });
  people.p5 = await registerAgent(stack.api, { birthdate: born(55), gender: 'other', interests: '', city: '', state: '' });
  viewer = await registerAgent(stack.api, { birthdate: born(35), gender: 'man', interests: 'chess', city: 'Lisbon', state: 'Lisboa' });
  member = await registerMember(stack.api, { birthdate: born(25), gender: 'woman', interests: 'hiking, chess', city: 'Lisbon', state: 'Lisboa' });
});
afterAll(() => stack?.stop());

const nameOf = (id: number) => Object.entries(people).find(([, p]) => p.user_id === id)?.[0] ?? `#${id}`;

/** Every page of a browse query over HTTP, as names, newest first. */
async function browse(query: string, token = viewer.token, limit = 100): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const res: JsonResponse = await stack.api.get(`/api/v1/discovery/browse?limit=${limit}${query ? `&${query}` : ''}${cursor ? `&cursor=${cursor}` : ''}`, {
      token,
    });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items.map((p: { id: number }) => nameOf(p.id)));
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

// Newest first: p5 was registered last of the agents.
const CASES: Array<[string, string[]]> = [
  ['', ['p5', 'p4', 'p3', 'p2', 'p1']],
  ['min_age=30', ['p5', 'p4', 'p3', 'p2']],
  ['max_age=30', ['p4', 'p2', 'p1']],
  ['age=30', ['p4', 'p2']],
  ['min_age=26&max_age=45', ['p4', 'p3', 'p2']],
  ['gender=woman', ['p4', 'p1']],
  ['gender=woman,nonbinary', ['p4', 'p3', 'p1']],
  ['gender=woman&gender=other', ['p5', 'p4', 'p1']],
  ['interests=chess', ['p2', 'p1']],
  ['interests=hiking,jazz', ['p4', 'p3', 'p1']],
  ['interests=hiking,%20JAZZ&interests_mode=all', ['p3']],
  ['interests=hiking&interests_mode=any', ['p3', 'p1']],
  ['city=lisbon', ['p3', 'p1']],
  ['city=LISBON', ['p3', 'p1']],
  ['city=new%20york', ['p4']],
  ['state=Lisboa', ['p3', 'p1']],
  ['state=nowhere', []],
  ['gender=woman&city=lisbon', ['p1']],
  ['min_age=30&interests=jazz', ['p4', 'p3']],
  ['age=30&gender=woman&state=ny', ['p4']],
  ['max_age=26&interests=jazz', []],
  ['min_age=20&max_age=60&gender=woman,man,nonbinary,other&interests=chess,jazz,hiking&city=lisbon&state=lisboa', ['p3', 'p1']],
];

describe('GET /discovery/browse filters', () => {
  it.each(CASES)('%s', async (query, expected) => {
    expect(await browse(query)).toEqual(expected);
  });

  it('never lists the caller, nor anyone of the other pool', async () => {
    const asP1 = await browse('', people.p1!.token);
    expect(asP1).not.toContain('p1');
    expect(asP1).toContain('#' + viewer.user_id);
    expect(asP1).not.toContain('#' + member.user_id);
    const asMember = await browse('', member.token);
    expect(asMember).toEqual([]);
  });

  it('shows profile edits at once', async () => {
    const patched = await stack.api.patch('/api/v1/me', { token: people.p5!.token, body: { display_name: 'Renamed Five', bio: 'New bio.' } });
    expect(patched.status).toBe(200);
    const res = await stack.api.get('/api/v1/discovery/browse?age=55', { token: viewer.token });
    expect(res.body.items.map((p: { display_name: string; bio: string }) => [p.display_name, p.bio])).toEqual([['Renamed Five', 'New bio.']]);
  });

  it('answers public profiles', async () => {
    const res = await stack.api.get('/api/v1/discovery/browse?age=25', { token: viewer.token });
    expect(res.body.items).toHaveLength(1);
    const profile = res.body.items[0];
    expect(Object.keys(profile).sort()).toEqual(['age', 'bio', 'city', 'created_at', 'display_name', 'gender', 'id', 'interests', 'state', 'theme_id'].sort());
    expect(profile.age).toBe(25);
    expect(profile.interests).toEqual(['hiking', 'chess']);
  });
});

describe('GET /discovery/browse paging', () => {
  it('pages with a stable cursor: concurrent registrations are neither repeated nor make anyone skipped', async () => {
    const first = await stack.api.get('/api/v1/discovery/browse?limit=2', { token: viewer.token });
    expect(first.body.items.map((p: { id: number }) => nameOf(p.id))).toEqual(['p5', 'p4']);
    await registerAgent(stack.api, { interests: 'chess' });
    const rest: string[] = [];
    let cursor: string | null = first.body.next_cursor;
    while (cursor) {
      const res = await stack.api.get(`/api/v1/discovery/browse?limit=2&cursor=${cursor}`, { token: viewer.token });
      rest.push(...res.body.items.map((p: { id: number }) => nameOf(p.id)));
      cursor = res.body.next_cursor;
      if (cursor) await registerAgent(stack.api, { interests: 'jazz' });
    }
    expect(rest).toEqual(['p3', 'p2', 'p1']);
  });

  it('gives the same pages whichever plan answers: whole driving filter, or a bounded walk of the pool', async () => {
    const app = stack.app;
    const index = new DiscoveryIndexRepository(app.redis, app.scripts, new AccountReadsRepository(app.redis, app.scripts));
    const feeds = new FeedRepository(app.redis, app.scripts);
    const ranker = new FeedRanker(index, feeds);
    const walking = new DiscoveryService(index, feeds, ranker, app.rankingJobs!.queue, { scanLimit: 1, browseDriverLimit: 0 });
    const driving = new DiscoveryService(index, feeds, ranker, app.rankingJobs!.queue, { scanLimit: 1, browseDriverLimit: 1_000 });
    const viewerRef = { pool: 'agent' as const, userId: viewer.user_id };
    const all = async (service: DiscoveryService, filters: BrowseFilters) => {
      const out: string[] = [];
      let after: BrowsePosition | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const page = await service.browse(viewerRef, filters, { limit: 1, after });
        out.push(...page.items.map((p) => nameOf(p.id)));
        if (!page.next) return out;
        after = page.next;
      }
      throw new Error('did not end');
    };
    const filters: BrowseFilters[] = [
      { interests_mode: 'any' },
      { interests_mode: 'any', gender: ['woman', 'nonbinary'] },
      { interests_mode: 'all', interests: ['hiking', 'jazz'] },
      { interests_mode: 'any', interests: ['jazz', 'chess'], min_age: 26 },
      { interests_mode: 'any', city: 'lisbon', max_age: 40 },
      { interests_mode: 'any', age: 30 },
    ];
    for (const f of filters) {
      const viaWalk = (await all(walking, f)).filter((n) => !n.startsWith('#'));
      const viaDriver = (await all(driving, f)).filter((n) => !n.startsWith('#'));
      expect(viaWalk, JSON.stringify(f)).toEqual(viaDriver);
      expect(viaWalk.length, JSON.stringify(f)).toBeGreaterThan(0);
    }
  });
});

describe('GET /discovery/browse bad input', () => {
  it('lists every bad parameter in one 400', async () => {
    const res = await stack.api.get('/api/v1/discovery/browse?min_age=abc&gender=robot,woman&interests_mode=some&colour=blue&limit=0&city=', {
      token: viewer.token,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['city', 'colour', 'gender', 'interests_mode', 'limit', 'min_age']);
    expect(res.body.error.details.find((d: { field: string }) => d.field === 'gender').message).toMatch(/robot/);
  });

  it.each([
    ['age=17', 'age'],
    ['max_age=151', 'max_age'],
    ['min_age=30.5', 'min_age'],
    ['min_age=40&max_age=30', 'max_age'],
    ['age=30&age=31', 'age'],
    ['interests=,,', 'interests'],
    ['gender=', 'gender'],
    ['cursor=not-a-cursor', 'cursor'],
    [`cursor=${Buffer.from('{"s":"x","i":1}').toString('base64url')}`, 'cursor'],
    ['limit=101', 'limit'],
  ])('%s → 400 naming %s', async (query, field) => {
    const res = await stack.api.get(`/api/v1/discovery/browse?${query}`, { token: viewer.token });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });

  it('needs a token', async () => {
    expect((await stack.api.get('/api/v1/discovery/browse')).status).toBe(401);
  });
});
