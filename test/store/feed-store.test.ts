import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { FeedRepository, type FeedPosition } from '../../src/features/discovery/feed-repository.js';
import { keys } from '../../src/platform/redis/keys.js';
import { ALL_PARTITIONS, indexPartition } from '../../src/platform/redis/key-space.js';
import { rosterCode } from '../../src/features/discovery/roster-repository.js';
import { writeRosterCode } from '../support/roster.js';
import { INDEX_SET_INTSET_ENTRIES as INTSET_LIMIT } from '../../src/platform/redis-server/redis-settings.js';
import { Scripts } from '../../src/platform/redis/scripts.js';
import { startRedis } from '../support/stack.js';

let server: Awaited<ReturnType<typeof startRedis>>;
let redis: Redis;
let feeds: FeedRepository;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
  feeds = new FeedRepository(redis, new Scripts(redis));
});
afterAll(async () => {
  redis?.disconnect();
  await server?.cleanup();
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Adds each id to the key of its own partition (`key(part)`), with its score when given as [score, id] pairs. */
async function addByPartition(key: (part: number) => string, ...scoreIds: Array<number | string>) {
  for (let i = 0; i < scoreIds.length; i += 2) await redis.zadd(key(indexPartition(scoreIds[i + 1]!)), scoreIds[i]!, String(scoreIds[i + 1]));
}
async function saddByPartition(key: (part: number) => string, ...ids: Array<number | string>) {
  for (const id of ids) await redis.sadd(key(indexPartition(id)), String(id));
}
const feedOf = (owner: number) => redis.zrange(keys.feed('agent', owner), '0', '-1', 'WITHSCORES');

describe('spreading a candidate into ranked feeds', () => {
  it('fills a feed up to its size, then only a better candidate gets in and the lowest leaves', async () => {
    await redis.zadd(keys.feedFloors('agent', indexPartition(1)), 0, '1');
    const floor = () => redis.zscore(keys.feedFloors('agent', indexPartition(1)), '1');
    for (const [candidate, score] of [
      [10, 500],
      [11, 300],
      [12, 400],
    ] as const) {
      await feeds.spread('agent', candidate, [{ owner: 1, score }], 3);
    }
    expect(await feedOf(1)).toEqual(['11', '300', '12', '400', '10', '500']);
    expect(await floor()).toBe('300');
    expect(await feeds.spread('agent', 13, [{ owner: 1, score: 300 }], 3)).toBe(0);
    expect(await feeds.spread('agent', 14, [{ owner: 1, score: 450 }], 3)).toBe(1);
    expect(await feedOf(1)).toEqual(['12', '400', '14', '450', '10', '500']);
    expect(await floor()).toBe('400');
    // already in: its score is updated in place; score 0 takes it out
    await feeds.spread('agent', 12, [{ owner: 1, score: 900 }], 3);
    expect((await feedOf(1)).slice(-2)).toEqual(['12', '900']);
    await feeds.spread('agent', 12, [{ owner: 1, score: 0 }], 3);
    expect(await feedOf(1)).toEqual(['14', '450', '10', '500']);
    expect(await floor()).toBe('0');
    expect(await redis.object('ENCODING', keys.feed('agent', 1))).toBe('listpack');
  });

  it('leaves alone a feed never ranked, one whose owner swiped the candidate, and the candidate itself', async () => {
    await addByPartition((p) => keys.feedFloors('agent', p), 0, '2', 0, '3');
    await redis.hset(keys.swipes('agent', 3), '20', 'pass');
    const changed = await feeds.spread(
      'agent',
      20,
      [
        { owner: 2, score: 100 },
        { owner: 3, score: 100 },
        { owner: 4, score: 100 },
        { owner: 20, score: 100 },
      ],
      5,
    );
    expect(changed).toBe(1);
    expect(await feedOf(2)).toEqual(['20', '100']);
    expect(await feedOf(3)).toEqual([]);
    expect(await feedOf(4)).toEqual([]);
    expect(await feedOf(20)).toEqual([]);
  });
});

describe('picking the feeds to spread into', () => {
  it('names the ranked candidates whose feed has room or a floor the account beats, with its score there', async () => {
    const interest = (name: string) => (p: number) => keys.interestIndex('agent', p, name);
    await saddByPartition(interest('spread-a'), '50', '51', '52', '53', '55');
    await saddByPartition(interest('spread-b'), '50', '56');
    // 51: room; 52: floor 400 (beaten); 53: floor 500 (not beaten); 54: ranked, shares nothing;
    // 55 and 56: never ranked; 50: the account itself
    await addByPartition((p) => keys.feedFloors('agent', p), 0, '51', 400, '52', 500, '53', 700, '54');
    const ranking = await feeds.rank('agent', 50, ['spread-a', 'spread-b'], [500, 200], 10, true);
    expect(ranking.candidates).toBe(6);
    // 52's floor (400) is beaten and 53's (500) is not: the score there lies between
    const targets = ranking.targets.sort((a, b) => a.owner - b.owner);
    expect(targets.map((t) => t.owner)).toEqual([51, 52]);
    for (const { score } of targets) expect(score > 400 && score < 500, String(score)).toBe(true);
    expect((await feeds.rank('agent', 50, ['spread-a', 'spread-b'], [500, 200], 10, false)).targets).toEqual([]);
  });
});

describe('ranking a feed', () => {
  it('scores sharers by summed weights, keeps the best `size` not swiped, and marks the feed ranked', async () => {
    const interest = (name: string) => (p: number) => keys.interestIndex('member', p, name);
    await saddByPartition(interest('rare'), '100', '101');
    await saddByPartition(interest('common'), '100', '102', '103', '104', '105');
    await redis.hset(keys.swipes('member', 100), '103', 'like');
    const { candidates } = await feeds.rank('member', 100, ['rare', 'common'], [3000, 500], 2, false);
    expect(candidates).toBe(6); // the account itself is gathered too; it is never picked
    const feed = await redis.zrange(keys.feed('member', 100), '0', '-1', 'REV', 'WITHSCORES');
    expect(feed.filter((_, i) => i % 2 === 0)).toEqual(['101', '105']);
    expect(Number(feed[1])).toBeGreaterThan(Number(feed[3]));
    expect(await redis.zscore(keys.rankedFeeds('member', indexPartition(100)), '100')).not.toBeNull();
    expect(await redis.zscore(keys.feedFloors('member', indexPartition(100)), '100')).toBe(feed[3]);
    const { targets } = await feeds.rank('member', 101, ['rare'], [3000], 5, true);
    expect(await redis.zscore(keys.feedFloors('member', indexPartition(101)), '101')).toBe('0');
    expect(targets.map((t) => t.owner)).toEqual([100]); // beats 100's floor
    expect(targets[0]!.score).toBeGreaterThan(Number(feed[3]));
  });
});

describe('ranking a feed with a capped common interest', () => {
  // Budget 10, at least 3 drawn per sampled interest: 'rare' (3 holders) and 'mid' (6) are taken whole,
  // 'common' (61 holders, more than the budget) only sampled.
  const interest = (name: string) => (p: number) => keys.interestIndex('member', p, name);
  const viewer = 2000;
  const common = ['2001', '2003', ...Array.from({ length: 58 }, (_, i) => String(2101 + i))];
  const weights = { rare: 3000, mid: 700, common: 500 };
  beforeAll(async () => {
    await saddByPartition(interest('capped-rare'), viewer, 2001, 2002);
    await saddByPartition(interest('capped-mid'), viewer, 2003, 2004, 2005, 2006, 2007);
    await saddByPartition(interest('capped-common'), viewer, ...common);
    // every sharer's feed ranked, with room: the spread targets are then exactly the candidates considered
    await addByPartition((p) => keys.feedFloors('member', p), ...['2001', '2002', '2003', '2004', '2005', '2006', '2007', ...common].flatMap((id) => [0, id]));
  });
  const rank = (bounds = { candidates: 10, minSample: 3 }, size = 100) =>
    feeds.rank('member', viewer, ['capped-common', 'capped-rare', 'capped-mid'], [weights.common, weights.rare, weights.mid], size, true, bounds);

  it('considers the rarer interests whole and only a sample of the common one', async () => {
    const { candidates, targets } = await rank();
    expect(candidates).toBeGreaterThanOrEqual(8); // the viewer, 2001..2007
    expect(candidates).toBeLessThanOrEqual(11); // + at most 3 drawn from 'common'
    const considered = targets.map((t) => String(t.owner));
    expect(considered).toHaveLength(candidates - 1); // all but the viewer
    expect(considered).toEqual(expect.arrayContaining(['2001', '2002', '2003', '2004', '2005', '2006', '2007']));
  });

  it('scores every candidate considered by all the interests it shares, so rarer and more shared rank higher', async () => {
    for (let run = 0; run < 5; run++) {
      await rank();
      const feed = await redis.zrange(keys.feed('member', viewer), '0', '-1', 'REV', 'WITHSCORES');
      const score = new Map<string, number>();
      for (let i = 0; i < feed.length; i += 2) score.set(feed[i]!, Number(feed[i + 1]));
      // 2001 and 2003 also hold the common interest; whether or not the sample drew them, it counts (the
      // stored score is the reciprocal one, rising with the weight shared: more shared and rarer rank higher)
      const of = (id: string) => score.get(id) ?? 0;
      expect(of('2001')).toBeGreaterThan(of('2002'));
      expect(of('2003')).toBeGreaterThan(of('2004'));
      expect(of('2002')).toBeGreaterThan(of('2004'));
      expect(feed.slice(0, 8).filter((_, i) => i % 2 === 0)).toEqual(['2001', '2002', '2003', '2007']);
      const drawn = [...score].filter(([id]) => !['2001', '2002', '2003', '2004', '2005', '2006', '2007'].includes(id));
      expect(drawn.length).toBeLessThanOrEqual(3);
      expect(drawn.every(([id, s]) => common.includes(id) && s < of('2004'))).toBe(true);
      expect(score.has(String(viewer))).toBe(false);
    }
  });

  it('draws at least the minimum sample from a common interest even when the rarer ones fill the budget', async () => {
    const { candidates } = await rank({ candidates: 3, minSample: 5 });
    // 'rare' whole (3 with the viewer) fills the budget; 'mid' and 'common' still add up to 5 each
    expect(candidates).toBeGreaterThan(3);
    expect(candidates).toBeLessThanOrEqual(13);
    const feed = await redis.zrange(keys.feed('member', viewer), '0', '-1', 'REV');
    expect(feed.slice(0, 2)).toEqual(['2001', '2002']);
  });

  it('ranks over every sharer when the budget covers them all', async () => {
    expect((await rank({ candidates: 1_000, minSample: 3 })).candidates).toBe(66); // the viewer, 2001..2007, 2101..2158
    expect(await redis.zcard(keys.feed('member', viewer))).toBe(65);
  });
});

describe('picking the feeds an account leaves for a dropped interest', () => {
  it('keeps, over every page of the set, ranked owners it now shares nothing with or whose floor it beats', async () => {
    const dropped = (p: number) => keys.interestIndex('agent', p, 'dropped');
    const kept = (p: number) => keys.interestIndex('agent', p, 'kept');
    const candidate = 3000;
    // 700 holders, 3001..3700, plus the candidate itself: about 30 in each partition, a compact set that
    // SSCAN answers whole, so it is paged by value, 10 at a time
    const holders = Array.from({ length: 700 }, (_, i) => 3001 + i);
    await saddByPartition(dropped, candidate, ...holders);
    await saddByPartition(kept, candidate, 3002, 3003);
    // ranked: every even holder with room, 3002 (shares 'kept', room) and 3003 (shares 'kept', floor too high)
    await addByPartition(
      (p) => keys.feedFloors('agent', p),
      ...holders.filter((id) => id % 2 === 0).flatMap((id) => [0, id]),
      0,
      3002,
      900,
      3003,
      0,
      candidate,
    );
    const expected = [...holders.filter((id) => id % 2 === 0 && id !== 3002).map((owner) => ({ owner, score: 0 })), { owner: 3002, score: 500 }].sort(
      (a, b) => a.owner - b.owner,
    );

    const all: Array<{ owner: number; score: number }> = [];
    let pages = 0;
    for (const part of ALL_PARTITIONS) {
      let cursor = '0';
      do {
        const page = await feeds.droppedTargets('agent', candidate, 'dropped', ['kept'], [500], part, cursor, 10);
        expect(page.targets.length).toBeLessThanOrEqual(10);
        all.push(...page.targets);
        cursor = page.cursor;
        pages++;
      } while (cursor !== '0');
    }
    expect(pages).toBeGreaterThanOrEqual(ALL_PARTITIONS.length * 3); // every partition's part, each paged to its end
    const unique = [...new Map(all.map((t) => [t.owner, t])).values()].sort((a, b) => a.owner - b.owner);
    expect(unique).toEqual(expected);
  });
});

describe('paging a dropped interest whose set changes form', () => {
  it('starts over by SSCAN when a set paged by value grows out of its compact form, missing no holder', async () => {
    const key = keys.interestIndex('agent', 0, 'outgrown');
    const candidate = 24 * 100_000;
    const first = Array.from({ length: 600 }, (_, i) => 24 * (i + 1));
    await redis.sadd(key, ...first);
    await redis.zadd(keys.feedFloors('agent', 0), ...first.flatMap((id) => [0, id]));
    const page = await feeds.droppedTargets('agent', candidate, 'outgrown', [], [], 0, '0', 100);
    expect(page.cursor).toMatch(/^v/);
    expect(page.targets).toHaveLength(100);
    // the set grows past the compact form's size: the value cursor no longer applies
    const more = Array.from({ length: INTSET_LIMIT + 100 }, (_, i) => 24 * (1_000 + i));
    await redis.sadd(key, ...more);
    expect(await redis.object('ENCODING', key)).toBe('hashtable');
    const seen = new Set(page.targets.map((t) => t.owner));
    let cursor = page.cursor;
    for (let calls = 0; cursor !== '0' && calls < 1_000; calls++) {
      const next = await feeds.droppedTargets('agent', candidate, 'outgrown', [], [], 0, cursor, 100);
      for (const target of next.targets) seen.add(target.owner);
      cursor = next.cursor;
    }
    expect(cursor).toBe('0');
    for (const id of first) expect(seen.has(id)).toBe(true);
  });
});

describe('reading a feed', () => {
  it('pages the ranked part, then the rest newest first, never repeating or skipping, past ids that name no account', async () => {
    const pool = 'member';
    const viewer = 4000;
    // ids 4001..4450 given, some of them to registrations that never completed (no account)
    const accounts = range(4001, 4450).filter((id) => id % 11 !== 0);
    for (const id of [viewer, ...accounts]) {
      await writeRosterCode(redis, pool, id, rosterCode(19900101, 'other'));
    }
    await redis.set(keys.userSeq(pool), 4450);
    // a ranked part longer than a page, with ties, and entries swiped since it was ranked
    const ranked = [4010, 4350, ...range(4100, 4124)];
    await redis.zadd(keys.feed(pool, viewer), 900, 4010, 800, 4350, ...range(4100, 4124).flatMap((id) => [500 - (id % 5), id]));
    await redis.zadd(keys.rankedFeeds(pool, indexPartition(viewer)), 1, viewer);
    const swiped = [4020, 4400, 4105, 4106, 4107];
    await redis.hset(keys.swipes(pool, viewer), ...swiped.flatMap((id) => [String(id), 'pass']));
    const expectedRanked = range(4100, 4124)
      .filter((id) => !swiped.includes(id))
      .sort((a, b) => (a % 5) - (b % 5) || b - a);
    const expectedRest = accounts.filter((id) => !ranked.includes(id) && !swiped.includes(id)).sort((a, b) => b - a);
    const expected = [4010, 4350, ...expectedRanked, ...expectedRest];

    for (const scanLimit of [5_000, 37]) {
      const seen: number[] = [];
      let after: FeedPosition | undefined;
      for (let pages = 0; pages < 500; pages++) {
        const page = await feeds.read(pool, viewer, 9, after, scanLimit);
        seen.push(...page.rows.map((row) => row.id));
        const last = page.rows[page.rows.length - 1];
        if (page.rows.length === 9 && last) after = { part: last.part, score: last.score, id: last.id };
        else if (page.stop) after = page.stop;
        else break;
      }
      expect(seen).toEqual(expected);
    }
  });
});

describe("a feed page's accounts", () => {
  it('leaves out those a block keeps from the reader (the page fills past them), says who liked the reader, and shows no suspended account', async () => {
    const pool = 'agent';
    const viewer = 7000;
    const ranked = range(7001, 7012);
    await redis.zadd(keys.feed(pool, viewer), ...ranked.flatMap((id) => [1000 - id, id]));
    await redis.hset(keys.hidden(pool, viewer), '7002', '1', '7005', '2');
    await redis.zadd(keys.likers(pool, viewer), 1, '7003', 2, '7009');
    const page = await feeds.read(pool, viewer, 5, undefined, 5_000);
    expect(page.rows.map((row) => row.id)).toEqual([7001, 7003, 7004, 7006, 7007]);
    expect([...page.likedBy]).toEqual([7003]);

    const card = (id: number) => `["chess"]\x1eAgent ${id}\x1f19900101\x1f0\x1f\x1f\x1f\x1f1\x1f0\x1esecret@example.com\x1fhash`;
    for (const id of [viewer, 7001, 7003, 7004]) await redis.hset(keys.accounts(pool, indexPartition(id)), String(id), card(id));
    await redis.hset(keys.suspensions(pool, indexPartition(7003)), '7003', '{}');
    await redis.hset(keys.rankTraits(pool, indexPartition(7004)), 'a:7004', '123');
    const cards = await feeds.cards(pool, [7001, 7003, 7004, 7006]);
    expect([...cards.keys()].sort()).toEqual([7001, 7004]);
    expect(cards.get(7004)).toMatchObject({ card: { id: 7004, displayName: 'Agent 7004', interests: ['chess'] }, traits: { lastActiveMs: 123 } });
    expect(JSON.stringify([...cards.values()])).not.toContain('secret@example.com');
    expect(await feeds.reader(pool, viewer)).toMatchObject({ reader: { card: { id: viewer } } });
    expect((await feeds.reader(pool, viewer)).rankedAt).toBeUndefined();
    await redis.zadd(keys.rankedFeeds(pool, indexPartition(viewer)), 1234, String(viewer));
    expect((await feeds.reader(pool, viewer)).rankedAt).toBe(1234);
  });
});

describe('reading a feed while accounts are spread into it', () => {
  it('shows a newly spread account in the ranked part or in the rest, never in neither', async () => {
    const pool = 'agent';
    const viewer = 9000;
    await writeRosterCode(redis, pool, viewer, rosterCode(19900101, 'other'));
    await redis.zadd(keys.rankedFeeds(pool, indexPartition(viewer)), 1, viewer);
    const missed: number[] = [];
    for (let newcomer = 9001; newcomer <= 9200; newcomer++) {
      await redis.del(keys.feed(pool, viewer));
      await redis.zadd(keys.feedFloors(pool, indexPartition(viewer)), 0, String(viewer));
      await writeRosterCode(redis, pool, newcomer, rosterCode(19900101, 'other'));
      await redis.set(keys.userSeq(pool), newcomer);
      // The newcomer's ranking spreads it into the viewer's feed while the viewer reads its first page.
      const [page] = await Promise.all([feeds.read(pool, viewer, 5, undefined, 5_000), feeds.spread(pool, newcomer, [{ owner: viewer, score: 100 }], 50)]);
      if (!page.rows.some((row) => row.id === newcomer)) missed.push(newcomer);
    }
    expect(missed).toEqual([]);
  });
});
