import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedRanker } from '../../src/features/discovery/feed-ranker.js';
import { keys } from '../../src/platform/redis/keys.js';
import { startDiscoveryStore, type DiscoveryStore } from '../support/discovery-store.js';

let store: DiscoveryStore;
beforeAll(async () => {
  store = await startDiscoveryStore();
});
afterAll(() => store?.cleanup());

describe('a ranking job with a capped candidate set', () => {
  it('still takes the account out of, or rescores it in, every feed of a holder of an interest it dropped', async () => {
    const { seed, redis, index, feeds, users } = store;
    const both: number[] = []; // hold 'common' and 'hobby'
    for (let i = 0; i < 20; i++) both.push(await seed(['common', 'hobby']));
    const hobbyOnly: number[] = [];
    for (let i = 0; i < 20; i++) hobbyOnly.push(await seed(['hobby']));
    const account = await seed(['common', 'hobby']);
    const uncapped = new FeedRanker(index, feeds);
    for (const id of [...both, ...hobbyOnly, account]) await uncapped.refresh('agent', id);
    const scoreIn = (owner: number) => redis.zscore(keys.feed('agent', owner), String(account));
    expect(await Promise.all([...both, ...hobbyOnly].map(scoreIn))).not.toContain(null);
    const before = await Promise.all(both.map(scoreIn));

    await users.update('agent', account, { interests: ['common'] });
    const capped = new FeedRanker(index, feeds, { candidates: 5, minSample: 2 });
    const outcome = await capped.refresh('agent', account);
    expect(outcome!.candidates).toBeLessThanOrEqual(5); // 'common' (21 holders) is only sampled
    expect(await redis.zcard(keys.feed('agent', account))).toBeLessThanOrEqual(5);

    // Sharing one interest of two now, the account fits each of them less: its reciprocal score there falls.
    const after = await Promise.all(both.map(scoreIn));
    after.forEach((score, i) => {
      expect(Number(score)).toBeGreaterThan(0);
      expect(Number(score)).toBeLessThan(Number(before[i]));
    });
    expect(await Promise.all(hobbyOnly.map(scoreIn))).toEqual(hobbyOnly.map(() => null));
    expect(await feeds.spreadInterests('agent', account)).toEqual(['common']);
  });
});
