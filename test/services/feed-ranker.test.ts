import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { interestWeight } from '../../src/domain/discovery-scoring.js';
import { FeedRanker } from '../../src/services/feed-ranker.js';
import { DiscoveryIndex } from '../../src/store/discovery-index.js';
import { FeedStore } from '../../src/store/feed-store.js';
import { keys } from '../../src/store/keys.js';
import type { ProfileCard } from '../../src/store/profile-cards.js';
import { Scripts } from '../../src/store/scripts.js';
import { UserRepository } from '../../src/store/user-repository.js';
import { startRedis } from '../support/stack.js';

let server: Awaited<ReturnType<typeof startRedis>>;
let redis: Redis;
let index: DiscoveryIndex;
let feeds: FeedStore;
let users: UserRepository;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
  const scripts = new Scripts(redis);
  index = new DiscoveryIndex(redis, scripts);
  feeds = new FeedStore(redis, scripts);
  users = new UserRepository(redis, scripts);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.cleanup();
});

const card = (interests: string[]): ProfileCard => ({
  displayName: 'Someone', birthdate: '1990-01-01', gender: 'woman', bio: '', interests, city: '', state: '', themeId: 1, createdAt: '2026-01-01T00:00:00.000Z',
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('a ranking job with a capped candidate set', () => {
  it('still takes the account out of, or rescores it in, every feed of a holder of an interest it dropped', async () => {
    const both = range(100, 119); // hold 'common' and 'hobby'
    const hobbyOnly = range(120, 139);
    const account = 200;
    for (const id of both) await index.save('agent', id, card(['common', 'hobby']));
    for (const id of hobbyOnly) await index.save('agent', id, card(['hobby']));
    await index.save('agent', account, card(['common', 'hobby']));
    await redis.zadd(keys.poolUsers('agent'), ...[...both, ...hobbyOnly, account].flatMap((id) => [id, id]));
    const uncapped = new FeedRanker(index, feeds, users);
    for (const id of [...both, ...hobbyOnly, account]) await uncapped.refresh('agent', id);
    const scoreIn = (owner: number) => redis.zscore(keys.feed('agent', owner), String(account));
    expect(await Promise.all([...both, ...hobbyOnly].map(scoreIn))).not.toContain(null);

    await index.save('agent', account, card(['common']));
    const capped = new FeedRanker(index, feeds, users, { candidates: 5, minSample: 2 });
    const outcome = await capped.refresh('agent', account);
    expect(outcome!.candidates).toBeLessThanOrEqual(5); // 'common' (21 holders) is only sampled
    expect(await redis.zcard(keys.feed('agent', account))).toBeLessThanOrEqual(5);

    const commonWeight = interestWeight(41, 21);
    expect(await Promise.all(both.map(scoreIn))).toEqual(both.map(() => String(commonWeight)));
    expect(await Promise.all(hobbyOnly.map(scoreIn))).toEqual(hobbyOnly.map(() => null));
    expect(await feeds.spreadInterests('agent', account)).toEqual(['common']);
  });
});
