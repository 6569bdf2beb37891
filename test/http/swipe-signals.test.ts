import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedRepository } from '../../src/features/discovery/feed-repository.js';
import { SwipeSignals } from '../../src/features/discovery/swipe-signals.js';
import { createLogger } from '../../src/platform/logger.js';
import { ageOfBirth } from '../../src/features/discovery/swipe-taste.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';
import { registerAgent, type Account } from '../support/accounts.js';
import { eventually } from '../support/eventually.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const swipe = (from: Account, to: Account, kind: string, headers?: Record<string, string>) =>
  stack.api.post(`/api/v1/likes/${to.user_id}?kind=${kind}`, { token: from.token, headers });

const traitsOf = (account: Account) =>
  stack.app.redis.hmget(keys.rankTraits('agent', indexPartition(account.user_id)), `t:${account.user_id}`, `a:${account.user_id}`);

describe('what a swipe tells discovery, after its answer', () => {
  it("gathers an account's swipes into one note, which a read of the traits in the process sends first", async () => {
    const feeds = new FeedRepository(stack.app.redis, stack.app.scripts);
    const signals = new SwipeSignals(feeds, createLogger('silent'));
    const swiper = await registerAgent(stack.api);
    const target = await registerAgent(stack.api, { gender: 'other', birthdate: '1970-01-01' });
    const stored = (await stack.app.redis.hget(keys.accounts('agent', indexPartition(target.user_id)), String(target.user_id)))!;
    // The script known to Redis first: a call Redis answers NOSCRIPT is sent again after what followed it.
    await feeds.traits.noteSwipes('agent', indexPartition(swiper.user_id), []);
    for (let i = 0; i < 3; i++) {
      signals.swiped({
        pool: 'agent',
        swiperId: swiper.user_id,
        targetId: target.user_id,
        kind: 'pass',
        outcome: 'recorded',
        target: stored,
        replay: false,
        leftFeed: false,
      });
    }
    // Nothing is sent yet; the read sends the note first, on the same connection, and sees all three.
    const traits = await feeds.traits.read('agent', [String(swiper.user_id)], 30);
    const taste = traits.get(String(swiper.user_id))!.taste;
    expect(taste.seen).toEqual([0, 0, 0, 3]);
    expect(taste.liked).toEqual([0, 0, 0, 0]);
    expect(traits.get(String(swiper.user_id))!.lastActiveMs).toBeGreaterThan(0);
  });

  it("adds each swipe to the swiper's taste by its target's gender and age as the swipe read them, once for a replayed Idempotency-Key, and marks the swiper active", async () => {
    const swiper = await registerAgent(stack.api);
    const woman = await registerAgent(stack.api, { gender: 'woman', birthdate: '1980-02-03' });
    const man = await registerAgent(stack.api, { gender: 'man', birthdate: '2000-07-01' });
    const headers = { 'Idempotency-Key': 'c1d7a0e4-7f6b-4c59-8d1e-2b3a4f5e6d7c' };
    const before = Date.now();
    expect((await swipe(swiper, woman, 'like', headers)).status).toBe(200);
    expect((await swipe(swiper, woman, 'like', headers)).status).toBe(200); // a replay: learnt from once
    expect((await swipe(swiper, man, 'pass')).status).toBe(200);

    const age = ageOfBirth(19800203, new Date());
    // seen per gender (man, woman, nonbinary, other), liked per gender, then the liked ages: count, sum, sum of squares
    const taste = [1, 1, 0, 0, 0, 1, 0, 0, 1, age, age * age].join(',');
    const [, active] = await eventually('both swipes noted', async () => {
      const read = await traitsOf(swiper);
      return read[0] === taste && read;
    });
    expect(Number(active)).toBeGreaterThanOrEqual(before);
  });

  it('writes nothing back for a swiper whose account is gone, and gives a feed that lost an entry its room, replay or not', async () => {
    const feeds = new FeedRepository(stack.app.redis, stack.app.scripts);
    const kept = await registerAgent(stack.api);
    const part = indexPartition(kept.user_id);
    // An id of the same partition that no account holds (as after its erasure).
    const gone = kept.user_id + 24 * 1_000_000;
    await stack.app.redis.zadd(keys.feedFloors('agent', part), 500, String(kept.user_id));
    // Four words a swiper: its id, its latest swipe to learn from ('' for replays only), what its swipes add to its taste, whether its feed lost an entry.
    const noted = await feeds.traits.noteSwipes('agent', part, [gone, Date.now(), '0,1,0,0,0,1,0,0,1,30,900', 1, kept.user_id, '', '', 1]);
    expect(noted).toBe(0);
    expect(await stack.app.redis.hmget(keys.rankTraits('agent', part), `t:${gone}`, `a:${gone}`, `t:${kept.user_id}`)).toEqual([null, null, null]);
    expect(await stack.app.redis.zscore(keys.feedFloors('agent', part), String(kept.user_id))).toBe('0');
    // A floor is only lowered, never added for a feed that had none.
    expect(await stack.app.redis.zscore(keys.feedFloors('agent', part), String(gone))).toBeNull();
  });
});
