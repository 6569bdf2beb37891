import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { GENDERS } from '../../src/features/accounts/account-schemas.js';
import { birthdateNumber, birthRange, normalizePlace, type BrowseFilters } from '../../src/features/discovery/browse-schemas.js';
import { latestBirthdateForAge } from '../../src/platform/core/dates.js';
import { DiscoveryService, type BrowsePosition } from '../../src/features/discovery/discovery-service.js';
import { FeedRanker } from '../../src/features/discovery/feed-ranker.js';
import { browseShare, DiscoveryIndexRepository, type FilterGroup } from '../../src/features/discovery/discovery-index-repository.js';
import { FeedRepository } from '../../src/features/discovery/feed-repository.js';
import { keys } from '../../src/platform/redis/keys.js';
import { ALL_PARTITIONS, INDEX_PARTITIONS } from '../../src/platform/redis/key-space.js';
import { rosterCode } from '../../src/features/discovery/roster-repository.js';
import { writeRosterCode as writeCode } from '../support/roster.js';
import { UserRepository, type UserRecord } from '../../src/features/accounts/user-repository.js';
import { startDiscoveryStore, type DiscoveryStore } from '../support/discovery-store.js';
import { prng } from '../../bench/lib/profiles.js';

let store: DiscoveryStore;
let redis: RedisClient;
let users: UserRepository;
let index: DiscoveryIndexRepository;
let feeds: FeedRepository;
const seeded: UserRecord[] = [];
const POOL_SIZE = 400;
const INTERESTS = ['chess', 'jazz', 'hiking', 'go', 'opera', 'tango', 'knitting', 'surfing', 'yoga', 'zines'];
const CITIES = ['Lisbon', 'Porto', 'Braga', 'Faro', 'Évora'];
const stateOf = (city: string) => (city === 'Lisbon' || city === 'Évora' ? 'South' : 'North');

beforeAll(async () => {
  store = await startDiscoveryStore();
  ({ redis, users, index, feeds } = store);
  const random = prng(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  // Runs of four accounts share a creation ms: the order is by id whatever the creation times.
  const base = Date.UTC(2026, 0, 1);
  for (let n = 1; n <= POOL_SIZE; n++) {
    const interests = [...new Set([pick(INTERESTS.slice(0, 3)), pick(INTERESTS), pick(INTERESTS)])];
    const city = pick(CITIES);
    const user = await users.create(
      {
        pool: 'agent',
        email: `budget-${n}@test.example`,
        passwordHash: 'x',
        displayName: `Budget ${n}`,
        bio: '',
        birthdate: latestBirthdateForAge(18 + Math.floor(random() * 50)),
        gender: pick(GENDERS),
        interests,
        city,
        state: stateOf(city),
        themeId: 1,
      },
      new Date(base + Math.floor((n - 1) / 4) * 1_000),
    );
    seeded.push(user!);
  }
});
afterAll(() => store?.cleanup());

const writeRosterCode = (pool: 'agent' | 'member', id: number, code: number) => writeCode(redis, pool, id, code);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const service = (budget: number, driverLimit = 5_000) =>
  new DiscoveryService(
    index,
    feeds,
    new FeedRanker(index, feeds),
    { schedule: async () => {} },
    { scanLimit: 5_000, browseDriverLimit: driverLimit, browseBudget: budget },
  );

/** What browse must list, worked out here from the seeded profiles: newest first, highest id first. */
function expected(viewer: number, filters: BrowseFilters): number[] {
  const birth = birthRange(filters);
  return seeded
    .filter((u) => u.id !== viewer)
    .filter((u) => !filters.gender || filters.gender.includes(u.gender))
    .filter(
      (u) =>
        !filters.interests ||
        (filters.interests_mode === 'all' ? filters.interests.every((i) => u.interests.includes(i)) : filters.interests.some((i) => u.interests.includes(i))),
    )
    .filter((u) => !filters.city || normalizePlace(u.city) === filters.city)
    .filter((u) => !filters.state || normalizePlace(u.state) === filters.state)
    .filter((u) => !birth || (birthdateNumber(u.birthdate) >= birth.min && birthdateNumber(u.birthdate) <= birth.max))
    .sort((a, b) => b.id - a.id)
    .map((u) => u.id);
}

/** Follows `next` to the end; the ids in order, and how many pages came back short with a cursor. */
async function walk(discovery: DiscoveryService, viewer: number, filters: BrowseFilters, limit: number) {
  const ids: number[] = [];
  let short = 0;
  let after: BrowsePosition | undefined;
  for (let pages = 0; pages < 20_000; pages++) {
    const page = await discovery.browse({ pool: 'agent', userId: viewer }, filters, { limit, after });
    ids.push(...page.items.map((p) => p.id));
    if (!page.next) return { ids, short };
    if (page.items.length < limit) short++;
    after = page.next;
  }
  throw new Error('browse did not end');
}

const QUERIES: BrowseFilters[] = [
  { interests_mode: 'any' },
  { interests_mode: 'any', gender: ['woman', 'nonbinary'] },
  { interests_mode: 'all', interests: ['chess', 'jazz'] },
  { interests_mode: 'any', interests: ['zines', 'opera'], min_age: 30 },
  { interests_mode: 'any', city: normalizePlace('Évora'), max_age: 40 },
  { interests_mode: 'any', gender: [...GENDERS], interests: ['chess', 'jazz', 'hiking'], min_age: 18, max_age: 150, state: 'north' },
  { interests_mode: 'any', age: 30 },
  // the adversarial shape: every gender, many interests, a city and a state no account has both of
  { interests_mode: 'all', gender: [...GENDERS], interests: ['chess', 'hiking'], city: 'lisbon', state: 'north', min_age: 18, max_age: 150 },
];

describe('browse within a budget of entries examined', () => {
  it('answers short pages with a cursor when the budget runs out, and followed to the end lists exactly the unbounded result', async () => {
    const viewer = seeded[17]!.id;
    let shortPages = 0;
    for (const filters of QUERIES) {
      const want = expected(viewer, filters);
      expect((await walk(service(1_000_000_000), viewer, filters, 100)).ids, JSON.stringify(filters)).toEqual(want);
      // Page budgets split over the partitions: below the per-call floor (browseShare), and shares of 20 and 100.
      for (const [budget, driverLimit] of [
        [1, 5_000],
        [120, 5_000],
        [120, 0],
        [480, 5_000],
        [2_400, 5_000],
      ] as const) {
        const { ids, short } = await walk(service(budget, driverLimit), viewer, filters, 20);
        expect(ids, `${JSON.stringify(filters)} within ${budget}`).toEqual(want);
        shortPages += short;
      }
    }
    // (a walk reads each account's age and gender with the probe that finds it, so only the set filters
    // cost look-ups: budgets end fewer pages than when every filter was a look-up of its own)
    expect(shortPages).toBeGreaterThan(15);
  });

  it('never examines more than its budget, even for the broadest query on every page', async () => {
    const viewer = seeded[3]!.id;
    // Each partition's call gets an equal share of the page's budget, but at least what counting the
    // query's sets and examining a few accounts costs (browseShare): the page keeps to that per call.
    const budget = 60 * INDEX_PARTITIONS;
    const groups = (part: number): FilterGroup[] => [
      ...INTERESTS.map((i) => [keys.interestIndex('agent', part, i)]),
      [keys.cityIndex('agent', part, 'lisbon')],
      [keys.stateIndex('agent', part, 'north')],
    ];
    const sets = groups(0).flat().length;
    const perCall = browseShare(budget, sets, true);
    expect(perCall).toBeGreaterThan(budget / INDEX_PARTITIONS); // 12 sets: the floor applies
    const birth = birthRange({ min_age: 18, max_age: 150 });
    let after: { id: number } | undefined;
    let calls = 0;
    for (;;) {
      const page = await index.browse({ pool: 'agent', viewerId: viewer, groups, birth, genders: GENDERS, want: 101, after, driverLimit: 5_000, budget });
      calls++;
      expect(page.rows).toEqual([]); // no account is both in Lisbon and in the North
      expect(page.examined).toBeLessThanOrEqual(perCall * INDEX_PARTITIONS);
      if (!page.stop) break;
      after = page.stop;
    }
    expect(calls).toBeGreaterThan(POOL_SIZE / budget);
  });

  it('keeps to the budget when one filter drives (read whole, then checked a batch at a time)', async () => {
    const viewer = seeded[5]!.id;
    const filters: BrowseFilters = { interests_mode: 'all', interests: ['chess', 'jazz', 'hiking'], gender: ['woman', 'man', 'other'], min_age: 20 };
    const holders = await Promise.all(
      ALL_PARTITIONS.map(async (part) => Math.min(...(await Promise.all(filters.interests!.map((i) => redis.scard(keys.interestIndex('agent', part, i))))))),
    );
    // in every partition the driver fits in its share (at most a quarter of it); its members are checked
    // (ages and genders in the roster, then the other sets) a batch at a time, each batch started only
    // when what is left of the share covers its worst case
    const budget = Math.max(...holders) * 4 * INDEX_PARTITIONS;
    const groups = (part: number): FilterGroup[] => (filters.interests ?? []).map((i) => [keys.interestIndex('agent', part, i)]);
    const page = await index.browse({
      pool: 'agent',
      viewerId: viewer,
      groups,
      birth: birthRange(filters),
      genders: filters.gender,
      want: 101,
      driverLimit: 5_000 * INDEX_PARTITIONS,
      budget,
    });
    expect(page.examined).toBeLessThanOrEqual(budget);
    expect((await walk(service(budget), viewer, filters, 3)).ids).toEqual(expected(viewer, filters));
  });

  it("stops a driving filter's checks where the budget ends, and resumes there", async () => {
    // In the member pool's first partition: a driving set of ten accounts, each also in three larger
    // sets and of an age and gender that pass, so every check of every member costs its worst case.
    const ids = range(1, 10).map((k) => k * INDEX_PARTITIONS);
    await redis.set(keys.userSeq('member'), ids[ids.length - 1]!);
    await redis.sadd(keys.interestIndex('member', 0, 'driver'), ...ids);
    for (const other of ['one', 'two', 'three']) await redis.sadd(keys.interestIndex('member', 0, other), ...ids, 1_000_000, 2_000_000);
    for (const id of ids) {
      await writeRosterCode('member', id, rosterCode(19900101, 'woman'));
    }
    const groups = (part: number): FilterGroup[] => ['driver', 'one', 'two', 'three'].map((i) => [keys.interestIndex('member', part, i)]);
    // the driver is a quarter of the first partition's share: reading it and checking its members
    // (one roster look-up and three set look-ups each) cost more than the share
    const budget = ids.length * 4 * INDEX_PARTITIONS;
    expect(browseShare(budget, 4, true)).toBe(ids.length * 4);
    const seen: number[] = [];
    let after: { id: number } | undefined;
    let pages = 0;
    for (; pages < 20; pages++) {
      const page = await index.browse({
        pool: 'member',
        viewerId: 0,
        groups,
        birth: { min: 19000101, max: 20000101 },
        genders: ['woman'],
        want: 101,
        after,
        driverLimit: 5_000 * INDEX_PARTITIONS,
        budget,
      });
      expect(page.examined).toBeLessThanOrEqual(budget);
      seen.push(...page.rows.map((row) => row.id));
      if (!page.stop) break;
      after = page.stop;
    }
    expect(pages).toBeGreaterThan(0);
    expect(seen).toEqual([...ids].reverse());
  });
});
