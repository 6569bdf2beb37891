import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { FeedStore } from '../../src/store/feed-store.js';
import { keys } from '../../src/store/keys.js';
import { Scripts } from '../../src/store/scripts.js';
import { startRedis } from '../support/stack.js';

let server: Awaited<ReturnType<typeof startRedis>>;
let redis: Redis;
let feeds: FeedStore;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
  feeds = new FeedStore(redis, new Scripts(redis));
});
afterAll(async () => {
  redis?.disconnect();
  await server?.cleanup();
});

const feedOf = (owner: number) => redis.zrange(keys.feed('agent', owner), '0', '-1', 'WITHSCORES');

describe('spreading a candidate into ranked feeds', () => {
  it('fills a feed up to its size, then only a better candidate gets in and the lowest leaves', async () => {
    await redis.zadd(keys.feedFloors('agent'), 0, '1');
    const floor = () => redis.zscore(keys.feedFloors('agent'), '1');
    for (const [candidate, score] of [[10, 500], [11, 300], [12, 400]] as const) {
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
    await redis.zadd(keys.feedFloors('agent'), 0, '2', 0, '3');
    await redis.hset(keys.swipes('agent', 3), '20', 'pass');
    const changed = await feeds.spread('agent', 20, [{ owner: 2, score: 100 }, { owner: 3, score: 100 }, { owner: 4, score: 100 }, { owner: 20, score: 100 }], 5);
    expect(changed).toBe(1);
    expect(await feedOf(2)).toEqual(['20', '100']);
    expect(await feedOf(3)).toEqual([]);
    expect(await feedOf(4)).toEqual([]);
    expect(await feedOf(20)).toEqual([]);
  });
});

describe('picking the feeds to spread into', () => {
  it('keeps ranked owners with room or a floor the candidate beats, and every ranked owner to leave', async () => {
    const scratch = keys.rankScratch('agent', 50);
    await redis.zadd(scratch, 900, '50', 500, '51', 500, '52', 500, '53', 0, '54', 0, '55', 200, '56');
    // 51: room; 52: floor 400 (beaten); 53: floor 500 (not beaten); 54: ranked, shares nothing now;
    // 55: never ranked; 56: never ranked; 50: the candidate itself
    await redis.zadd(keys.feedFloors('agent'), 0, '51', 400, '52', 500, '53', 700, '54');
    const all = await feeds.spreadTargets('agent', 50, 0, 100);
    expect(all.sort((a, b) => a.owner - b.owner)).toEqual([
      { owner: 51, score: 500 },
      { owner: 52, score: 500 },
      { owner: 54, score: 0 },
    ]);
    const sliced = [...(await feeds.spreadTargets('agent', 50, 0, 3)), ...(await feeds.spreadTargets('agent', 50, 3, 3)), ...(await feeds.spreadTargets('agent', 50, 6, 3))];
    expect(sliced.sort((a, b) => a.owner - b.owner)).toEqual(all);
  });
});

describe('ranking a feed', () => {
  it('scores sharers by summed weights, keeps the best `size` not swiped, and marks the feed ranked', async () => {
    const interest = (name: string) => keys.interestIndex('member', name);
    await redis.sadd(interest('rare'), '100', '101');
    await redis.sadd(interest('common'), '100', '102', '103', '104', '105');
    await redis.hset(keys.swipes('member', 100), '103', 'like');
    const sharers = await feeds.rank('member', 100, ['rare', 'common'], [3000, 500], 2, false);
    expect(sharers).toBe(6); // the union holds the account itself too; it is never picked
    expect(await redis.zrange(keys.feed('member', 100), '0', '-1', 'REV', 'WITHSCORES')).toEqual(['101', '3000', '105', '500']);
    expect(await feeds.isRanked('member', 100)).toBe(true);
    expect(await redis.zscore(keys.feedFloors('member'), '100')).toBe('500');
    await feeds.rank('member', 101, ['rare'], [3000], 5, true);
    expect(await redis.zscore(keys.feedFloors('member'), '101')).toBe('0');
    expect(await redis.zrange(keys.rankScratch('member', 101), '0', '-1')).toEqual(['100', '101']);
    expect(await redis.exists(keys.rankScratch('member', 100))).toBe(0);
  });
});
