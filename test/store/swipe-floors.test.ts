import { accountFiling } from '../../src/features/discovery/discovery-index-repository.js';
import { AccountReadsRepository } from '../../src/features/accounts/account-reads-repository.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { FeedRepository } from '../../src/features/discovery/feed-repository.js';
import { keys } from '../../src/platform/redis/keys.js';
import { MessageRepository } from '../../src/features/matches/message-repository.js';
import { createLogger } from '../../src/platform/logger.js';
import { OutboxRunner } from '../../src/platform/outbox/outbox-runner.js';
import { MatchListing } from '../../src/features/matches/match-listing.js';
import { EventStreamRepository } from '../../src/features/events/event-stream-repository.js';
import { EventAppender } from '../../src/features/events/event-appender.js';
import { MatchEventSteps } from '../../src/features/matches/match-event-steps.js';
import { spectatorAppends } from '../../src/features/spectator/spectator-appends.js';
import { MatchListRepository } from '../../src/features/matches/match-list-repository.js';
import { OutboxRepository } from '../../src/platform/outbox/outbox-repository.js';
import { SwipeRepository, type RecordedSwipe } from '../../src/features/swipes/swipe-repository.js';
import { UserRepository } from '../../src/features/accounts/user-repository.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { startStore } from '../support/stack.js';
import { storeAgents } from '../support/stored-accounts.js';

let store: Awaited<ReturnType<typeof startStore>>;
let redis: RedisClient;
let swipes: SwipeRepository;
let outbox: OutboxRunner;
let feeds: FeedRepository;
beforeAll(async () => {
  store = await startStore();
  const { scripts } = store;
  redis = store.redis;
  swipes = new SwipeRepository(redis, scripts, new AccountReadsRepository(redis, scripts), { limit: 0, windowSeconds: 60 });
  outbox = new OutboxRunner(new OutboxRepository(redis, scripts), createLogger('silent'));
  outbox
    .register(new MatchListing(new MatchListRepository(scripts)))
    .register(
      new MatchEventSteps(
        new EventAppender(new EventStreamRepository(redis, scripts)),
        new UserRepository(redis, scripts, accountFiling),
        new MessageRepository(redis, scripts),
      ).addAudience(spectatorAppends),
    );
  feeds = new FeedRepository(redis, scripts);
  await storeAgents(redis, [1, 2, 3, 4, 5, 6], 'Floor');
});
afterAll(() => store?.cleanup());

/** A swipe recorded and its outbox steps completed, as the swipe service does. */
async function swipe(from: number, to: number, kind: 'like' | 'pass', idempotencyKey?: string): Promise<RecordedSwipe> {
  const outcome = await swipes.record('agent', from, to, kind, new Date(), idempotencyKey);
  if (outcome.status === 'recorded' && outcome.pending) await outbox.complete('agent', outcome.pending);
  if (outcome.status === 'recorded' && outcome.leftFeed) await swipes.feedHasRoom('agent', from);
  return outcome;
}

const floor = (id: number) => redis.zscore(keys.feedFloors('agent', indexPartition(id)), String(id));

describe('a swipe and the floors of ranked feeds', () => {
  it('resets the floor of a full feed the swipe takes an entry out of, so the freed slot can be filled', async () => {
    // owner 1's feed (size 3) is full, its floor the lowest score
    await redis.zadd(keys.feed('agent', 1), 900, '2', 800, '3', 600, '4');
    await redis.zadd(keys.feedFloors('agent', indexPartition(1)), 600, '1');
    // account 6 shares one interest with owner 1, its only one: a reciprocal score of about 510 there
    await redis.sadd(keys.interestIndex('agent', indexPartition(1), 'kites'), '1');
    await redis.sadd(keys.interestIndex('agent', indexPartition(6), 'kites'), '6');
    const targetsOf6 = async () => (await feeds.rank('agent', 6, ['kites'], [200], 3, true)).targets;
    expect(await targetsOf6()).toEqual([]); // it does not beat 600

    await swipe(1, 5, 'pass'); // 5 is not in the feed: nothing freed
    expect(await floor(1)).toBe('600');
    await swipe(1, 2, 'like');
    expect(await redis.zrange(keys.feed('agent', 1), '0', '-1')).toEqual(['4', '3']);
    expect(await floor(1)).toBe('0');

    const targets = await targetsOf6();
    expect(targets).toEqual([{ owner: 1, score: expect.any(Number) }]);
    const score = targets[0]!.score;
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThan(600);
    expect(await feeds.spread('agent', 6, targets, 3)).toBe(1);
    expect(await redis.zrange(keys.feed('agent', 1), '0', '-1')).toEqual(['6', '4', '3']);
    expect(await floor(1)).toBe(String(score));
  });

  it('gives no floor to a swiper whose feed was never ranked, and works with an Idempotency-Key', async () => {
    await redis.zadd(keys.feed('agent', 3), 100, '4');
    await swipe(3, 4, 'pass', 'key-1');
    expect(await redis.zcard(keys.feed('agent', 3))).toBe(0);
    expect(await floor(3)).toBeNull();
    const replay = await swipe(3, 4, 'pass', 'key-1');
    expect(replay).toMatchObject({ status: 'recorded', replay: true, kind: 'pass' });
  });
});
