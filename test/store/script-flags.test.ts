import { accountFiling } from '../../src/features/discovery/discovery-index-repository.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageRepository } from '../../src/features/matches/message-repository.js';
import { createLogger } from '../../src/platform/logger.js';
import { OutboxRunner } from '../../src/platform/outbox/outbox-runner.js';
import { MatchListing } from '../../src/features/matches/match-listing.js';
import { EventStreamRepository } from '../../src/features/events/event-stream-repository.js';
import { EventAppender } from '../../src/features/events/event-appender.js';
import { MatchEventSteps } from '../../src/features/matches/match-event-steps.js';
import { spectatorAppends } from '../../src/features/spectator/spectator-appends.js';
import { keys, userStreamKeys } from '../../src/platform/redis/keys.js';
import { MatchListRepository } from '../../src/features/matches/match-list-repository.js';
import { OutboxRepository } from '../../src/platform/outbox/outbox-repository.js';
import { loadScripts } from '../../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR, Scripts } from '../../src/platform/redis/scripts.js';
import { UserRepository } from '../../src/features/accounts/user-repository.js';
import { fillRedis } from '../support/redis-memory.js';
import { startRedis } from '../support/stack.js';

const scripts = [...loadScripts(LUA_DIRS, SHARED_LUA_DIR).values()];
const header = (lua: string) => lua.slice(0, lua.indexOf('\n'));
const PENDING = JSON.stringify([
  { type: 'match.unlisted', match_id: 5, users: [1, 3] },
  { type: 'match.ended', match_id: 5, users: [1, 3], ended_at: '2026-01-01T00:00:00.000Z' },
]);

/** Writes that complete another write Redis already took; each says why in its header. */
const ALLOWED_WHEN_FULL = ['append_event', 'confirm_pending', 'list_match'];

describe('every Lua script declares itself', () => {
  it('as a write script (refused whole when Redis is full), a read-only one, or a listed completion write', () => {
    expect(scripts.length).toBeGreaterThan(0);
    for (const { name, lua } of scripts) {
      expect(['#!lua', '#!lua flags=no-writes', '#!lua flags=allow-oom'], name).toContain(header(lua));
      if (header(lua) === '#!lua flags=allow-oom') {
        expect(ALLOWED_WHEN_FULL, name).toContain(name);
        expect(lua, name).toContain('Flagged allow-oom:');
      }
    }
    expect(
      scripts
        .filter((s) => header(s.lua).includes('allow-oom'))
        .map((s) => s.name)
        .sort(),
    ).toEqual(ALLOWED_WHEN_FULL);
  });

  describe('against a full Redis', () => {
    let redis: Awaited<ReturnType<typeof startRedis>>;
    let client: Redis;
    beforeAll(async () => {
      redis = await startRedis();
      client = new Redis(redis.url);
      // Writes Redis took before it filled up: a match; the unmatch's pending record.
      await client.zadd(keys.userMatches('agent', 1), 1, '5');
      await client.hset(keys.shardOutbox('agent', 7), 'pending-1', PENDING);
      await client.zadd(keys.shardOutboxDue('agent', 7), 1, 'pending-1');
      await fillRedis(client);
    });
    afterAll(async () => {
      client?.disconnect();
      await redis?.cleanup();
    });

    it('refuses every write script before it starts, and runs every read-only one', async () => {
      for (const { name, lua } of scripts) {
        // Refused scripts never start, so their arguments do not matter; read-only ones fail on the
        // missing arguments, which shows they ran.
        const outcome = await client.eval(lua, 0).then(
          () => 'ran',
          (error: Error) => error.message,
        );
        if (header(lua) === '#!lua') expect(outcome, name).toMatch(/^OOM command not allowed/);
        if (header(lua) === '#!lua flags=no-writes') expect(outcome, name).not.toMatch(/OOM/);
      }
    });

    it('still completes a write Redis already took: its events, and every outbox step of its pending record', async () => {
      const scripts = new Scripts(client);
      const streams = new EventStreamRepository(client, scripts);
      const id = await streams.append({ target: userStreamKeys('agent', 9), route: 'user/agent/9', maxLength: 10, body: '{"type":"t"}' });
      expect(await client.xlen(keys.userEvents('agent', 9))).toBe(1);
      expect(id).toMatch(/^\d+-\d+$/);

      const runner = new OutboxRunner(new OutboxRepository(client, scripts), createLogger('silent'));
      runner
        .register(new MatchListing(new MatchListRepository(scripts)))
        .register(
          new MatchEventSteps(
            new EventAppender(streams),
            new UserRepository(client, scripts, accountFiling),
            new MessageRepository(client, scripts),
          ).addAudience(spectatorAppends),
        );
      await runner.complete('agent', { shard: 7, id: 'pending-1' });
      expect(await client.hexists(keys.shardOutbox('agent', 7), 'pending-1')).toBe(0);
      expect(await client.zcard(keys.userMatches('agent', 1))).toBe(0);
      for (const user of [1, 3]) expect(await client.xlen(keys.userEvents('agent', user))).toBe(1);
    });
  });
});
