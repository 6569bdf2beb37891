import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventOutboxStore } from '../../src/store/event-outbox-store.js';
import { EventStreams } from '../../src/store/event-streams.js';
import { keys } from '../../src/store/keys.js';
import { Scripts } from '../../src/store/scripts.js';
import { fillRedis } from '../support/redis-memory.js';
import { startRedis } from '../support/stack.js';

const LUA_DIR = join(import.meta.dirname, '..', '..', 'lua');
const scripts = readdirSync(LUA_DIR)
  .filter((file) => file.endsWith('.lua'))
  .map((file) => ({ name: file.slice(0, -4), lua: readFileSync(join(LUA_DIR, file), 'utf8') }));
const header = (lua: string) => lua.slice(0, lua.indexOf('\n'));

/** Writes that complete another write Redis already took; each says why in its header. */
const ALLOWED_WHEN_FULL = ['append_events', 'flush_events'];

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
    expect(scripts.filter((s) => header(s.lua).includes('allow-oom')).map((s) => s.name).sort()).toEqual(ALLOWED_WHEN_FULL);
  });

  describe('against a full Redis', () => {
    let redis: Awaited<ReturnType<typeof startRedis>>;
    let client: Redis;
    beforeAll(async () => {
      redis = await startRedis();
      client = new Redis(redis.url);
      // A write Redis took before it filled up: its pending record is there to be flushed.
      await client.hset(keys.outbox('agent'), 'pending-1', '[]');
      await client.zadd(keys.outboxDue('agent'), 1, 'pending-1');
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
        const outcome = await client.eval(lua, 0).then(() => 'ran', (error: Error) => error.message);
        if (header(lua) === '#!lua') expect(outcome, name).toMatch(/^OOM command not allowed/);
        if (header(lua) === '#!lua flags=no-writes') expect(outcome, name).not.toMatch(/OOM/);
      }
    });

    it('still completes a write Redis already took: its events, and the flush of its pending record', async () => {
      const scripts = new Scripts(client);
      const [id] = await new EventStreams(client, scripts).append([{ key: keys.userEvents('agent', 1), route: 'user:agent:1', maxLength: 10, body: '{"type":"t"}' }]);
      expect(await client.xlen(keys.userEvents('agent', 1))).toBe(1);
      expect(id).toMatch(/^\d+-\d+$/);
      const entry = { key: keys.userEvents('agent', 2), route: 'user:agent:2', maxLength: 10, body: '{"type":"t"}' };
      expect(await new EventOutboxStore(client, scripts).flush('agent', 'pending-1', [entry])).toBe(true);
      expect(await client.xlen(keys.userEvents('agent', 2))).toBe(1);
      expect(await client.hexists(keys.outbox('agent'), 'pending-1')).toBe(0);
    });
  });
});
