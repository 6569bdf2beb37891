import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxRunner } from '../../src/platform/outbox/outbox-runner.js';
import { MatchListing } from '../../src/features/matches/match-listing.js';
import { EventStreamRepository } from '../../src/features/events/event-stream-repository.js';
import { pairShard, SHARDS } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';
import { MatchListRepository } from '../../src/features/matches/match-list-repository.js';
import { MessageRepository } from '../../src/features/matches/message-repository.js';
import { EventAppender } from '../../src/features/events/event-appender.js';
import { MatchEventSteps } from '../../src/features/matches/match-event-steps.js';
import { spectatorAppends } from '../../src/features/spectator/spectator-appends.js';
import { OutboxRepository } from '../../src/platform/outbox/outbox-repository.js';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import type { Scripts } from '../../src/platform/redis/scripts.js';
import { recordSwipe } from '../../src/features/swipes/swipe-repository.js';
import { UserRepository } from '../../src/features/accounts/user-repository.js';
import { accountFiling } from '../../src/features/discovery/discovery-index-repository.js';
import { startStore } from '../support/stack.js';

let store: Awaited<ReturnType<typeof startStore>>;
let client: RedisClient;
let scripts: Scripts;
/** The warnings and errors the runner logged, as JSON lines. */
const logged: string[] = [];

beforeAll(async () => {
  store = await startStore();
  ({ redis: client, scripts } = store);
});
afterAll(() => store?.cleanup());

function runner(maxAttempts = 20): OutboxRunner {
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
  const streams = new EventStreamRepository(client, scripts);
  return new OutboxRunner(new OutboxRepository(client, scripts), logger, { maxAttempts })
    .register(new MatchListing(new MatchListRepository(scripts)))
    .register(
      new MatchEventSteps(new EventAppender(streams), new UserRepository(client, scripts, accountFiling), new MessageRepository(client, scripts)).addAudience(
        spectatorAppends,
      ),
    );
}

/** Writes a pending record as it is, committed long ago. */
async function plant(shard: number, pendingId: string, record: string) {
  await client.hset(keys.shardOutbox('agent', shard), pendingId, record);
  await client.zadd(keys.shardOutboxDue('agent', shard), 1, pendingId);
}

const listed = (user: number, matchId: number) => client.zscore(keys.userMatches('agent', user), String(matchId));

describe('a pending outbox record', () => {
  it('written by hand as earlier versions did is read and completed', async () => {
    const shard = 5 % SHARDS;
    const complete = runner();
    await plant(
      shard,
      'c5',
      '[{"type":"match.listed","match_id":5,"users":[1,3],"at":1000},{"type":"match.created","match":{"id":5,"users":[1,3],"created_at":"2026-01-01T00:00:00.000Z","shared_interests":[]}}]',
    );
    await plant(
      shard,
      'm261',
      '[{"type":"match.touched","match_id":5,"users":[1,3],"at":2000},{"type":"message.created","match_id":5,"users":[1,3],"message_id":261}]',
    );
    const held = { id: 5, match_id: 5, sender_id: 1, body: 'Hi', created_at: '2026-01-01T00:00:01.000Z', shared_interests_mentioned: [] };
    await plant(shard, 'm5', JSON.stringify([{ type: 'message.created', match_id: 5, users: [1, 3], message: held }]));
    await plant(shard, 'l1:3:1000', '[{"type":"like.received","from":1,"to":3,"created_at":"2026-01-01T00:00:00.000Z"}]');

    for (const id of ['c5', 'm261', 'm5', 'l1:3:1000']) await complete.complete('agent', { shard, id });
    expect(await client.hlen(keys.shardOutbox('agent', shard))).toBe(0);
    expect(await listed(1, 5)).toBe('2000');

    await plant(
      shard,
      'e5',
      '[{"type":"match.unlisted","match_id":5,"users":[1,3]},{"type":"match.ended","match_id":5,"users":[1,3],"ended_at":"2026-01-02T00:00:00.000Z"}]',
    );
    await complete.complete('agent', { shard, id: 'e5' });
    expect(await client.hexists(keys.shardOutbox('agent', shard), 'e5')).toBe(0);
    expect(await listed(1, 5)).toBeNull();
    // the held message's event and match.ended (the other events need profiles or a thread these users do not have)
    expect(await client.xlen(keys.userEvents('agent', 3))).toBe(2);
  });

  it('written by the scripts now reads as the effects they mean, an empty list of shared interests included', async () => {
    const swipe = async (from: number, to: number, candidate: number, interests: [string, string]) => {
      const shard = pairShard(from, to);
      const matchId = candidate * SHARDS + shard;
      const keyList = [
        keys.pair('agent', from, to),
        keys.match('agent', matchId),
        keys.shardOutbox('agent', shard),
        keys.shardOutboxDue('agent', shard),
        keys.idempotency('agent', shard, from, `likes/${to}`, ''),
      ];
      const at = Date.UTC(2026, 0, 1);
      return scripts.run(recordSwipe, keyList, [from, to, 'super_like', at, new Date(at).toISOString(), matchId, 0, ...interests]);
    };
    await swipe(20, 21, 1, ['["chess"]', '["jazz"]']);
    const { sharedInterests, pendingRecord } = await swipe(21, 20, 1, ['["jazz"]', '["chess"]']);
    expect(sharedInterests).toEqual([]);
    const matchId = SHARDS + pairShard(20, 21);
    const at = Date.UTC(2026, 0, 1);
    const createdAt = new Date(at).toISOString();
    expect(runner().effectsOf(pendingRecord!)).toEqual([
      { type: 'like.received', from: 21, to: 20, created_at: createdAt },
      { type: 'match.listed', match_id: matchId, users: [20, 21], at },
      { type: 'match.created', match: { id: matchId, users: [20, 21], created_at: createdAt, shared_interests: [] } },
    ]);

    await swipe(30, 31, 2, ['["chess","jazz/fusion"]', '["jazz/fusion","chess"]']);
    const second = await swipe(31, 30, 2, ['["jazz/fusion","chess"]', '["chess","jazz/fusion"]']);
    expect(second.sharedInterests).toEqual(['chess', 'jazz/fusion']);
    const created = runner()
      .effectsOf(second.pendingRecord!)
      .find((effect) => effect.type === 'match.created');
    expect(created).toMatchObject({ match: { shared_interests: ['chess', 'jazz/fusion'] } });
  });

  it('that its schema refuses is not carried out: logged, left to the sweeper, and buried in the dead letter at its first sweep, however many attempts the policy allows', async () => {
    const shard = 7;
    const invalid = '[{"type":"match.listed","match_id":7,"users":[9],"at":1000}]';
    await plant(shard, 'bad-1', invalid);
    const sweeper = runner(20);

    await sweeper.complete('agent', { shard, id: 'bad-1' });
    expect(await client.hget(keys.shardOutbox('agent', shard), 'bad-1')).toBe(invalid);
    expect(await listed(9, 7)).toBeNull();
    const warning = logged
      .map((line) => JSON.parse(line) as { msg: string; err?: { message: string } })
      .find((entry) => entry.err?.message.includes('(match.listed) is not valid'));
    expect(warning?.msg).toBe('could not complete the outbox steps yet; the sweeper will');

    await sweeper.sweep(0);
    const buried = JSON.parse((await client.hget(keys.outboxDeadLetter(), `agent:${shard}:bad-1`)) ?? '{}') as { record?: string; last_error?: string };
    expect(buried.record).toBe(invalid);
    expect(buried.last_error).toMatch(/^effect 0 of the pending record \(match\.listed\) is not valid/);
    expect(await client.hexists(keys.shardOutbox('agent', shard), 'bad-1')).toBe(0);
    expect(await listed(9, 7)).toBeNull();
  });
});
