import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateKeyLayout } from '../../src/layout-migration.js';
import { createLogger } from '../../src/platform/logger.js';
import { matchShard, SHARDS } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { KEY_LAYOUT } from '../../src/platform/redis-server/key-layout-check.js';
import { matchedPair } from '../support/matched-pair.js';
import type { SeededAccount } from '../support/seeded-accounts.js';
import { startApp, startStore, type TestApp, type TestRedis } from '../support/stack.js';

let store: Awaited<ReturnType<typeof startStore>>;
let redis: TestRedis;
let client: RedisClient;
beforeAll(async () => {
  store = await startStore();
  ({ server: redis, redis: client } = store);
});
afterAll(() => store?.cleanup());

/** A key as layout 2 named a match's thread (a sorted set) or its ended thread. */
const layout2Thread = (matchId: number) => keys.thread('agent', matchId).replace(':thread:', ':messages:');

/** A message as layout 2 stored it: its JSON, scored by its id. */
const stored = (id: number, matchId: number, sender: number, body: string, mentioned: string[] = []) => ({
  id,
  match_id: matchId,
  sender_id: sender,
  body,
  created_at: new Date(Date.UTC(2026, 10, 20, 12) + id * 1_000).toISOString(),
  shared_interests_mentioned: mentioned,
});

/** Writes a thread as layout 2 did: the sorted set, and each message's mark in the match's read state. */
async function writeLayout2Thread(key: string, matchId: number, messages: ReturnType<typeof stored>[], a: number) {
  await client.zadd(key, ...messages.flatMap((message) => [message.id, JSON.stringify(message)]));
  let sentA = 0;
  let sentB = 0;
  for (const message of messages) {
    if (message.sender_id === a) sentA += 1;
    else sentB += 1;
    await client.hset(keys.readState('agent', matchId), `m:${message.id}`, `${sentA}:${sentB}`);
  }
  await client.hset(keys.readState('agent', matchId), `sent:${a}`, sentA);
  await client.pexpire(key, 86_400_000);
}

const migrate = () => migrateKeyLayout(redis.topology, createLogger('silent'));

describe('moving stored data to key layout 3', () => {
  let app: TestApp;
  let pair: { a: SeededAccount; b: SeededAccount; matchId: number };
  const messages: ReturnType<typeof stored>[] = [];

  it('is refused by the service until `migrate` has run, which moves every thread, whole and in order', async () => {
    app = await startApp(redis);
    pair = await matchedPair(app);
    await app.stop();
    const { a, b, matchId } = pair;
    // A thread of 450 messages (three steps of the move), one with a mention and a body JSON must escape; ids
    // from the shard's message counter, as the service gave them.
    const shard = matchShard(matchId);
    for (let i = 1; i <= 450; i++) {
      messages.push(stored(i * SHARDS + shard, matchId, i % 3 ? a.user_id : b.user_id, `old ${i} "quoted" 🦊`, i === 7 ? ['chess'] : []));
    }
    await client.set(keys.messageSeq('agent', shard), 450);
    await writeLayout2Thread(layout2Thread(matchId), matchId, messages, a.user_id);
    // An ended match's thread kept for reports, and a move stopped part way: its first 100 entries already moved.
    const endedId = matchId + 256;
    const ended = keys.endedThread('agent', endedId);
    const endedMessages = Array.from({ length: 150 }, (_, i) => stored(i + 1, endedId, a.user_id, `ended ${i + 1}`));
    for (const message of endedMessages.slice(0, 100)) {
      await client.xadd(
        `${ended}:moving`,
        `${message.id}-${Date.parse(message.created_at)}`,
        's',
        message.sender_id,
        'b',
        message.body,
        'i',
        '',
        'a',
        0,
        'z',
        0,
      );
    }
    await client.zadd(ended, ...endedMessages.slice(100).flatMap((message) => [message.id, JSON.stringify(message)]));
    await client.expire(ended, 3_600);
    await client.set(keys.keyLayout(), 2);

    await expect(startApp(redis)).rejects.toThrow(/key layout 2; stop every process of the service and move it to layout 3 with `npm run migrate`/);

    expect(await migrate()).toEqual({ outcome: 'moved', threads: 2, messages: 450 + 50 });
    expect(await client.get(keys.keyLayout())).toBe(String(KEY_LAYOUT));
    expect(await client.exists(layout2Thread(matchId))).toBe(0);
    expect(await client.type(ended)).toBe('stream');
    expect(await client.xlen(ended)).toBe(150);
    expect(await client.ttl(ended)).toBeGreaterThan(3_500);
    expect(await client.exists(`${ended}:moving`)).toBe(0);
    // The marks moved into the entries: the read state keeps its counters only.
    expect(Object.keys(await client.hgetall(keys.readState('agent', matchId)))).toEqual([`sent:${a.user_id}`]);
    expect(await migrate()).toEqual({ outcome: 'current' });
  });

  it('leaves every message readable as it was, and the thread goes on from there', async () => {
    app = await startApp(redis);
    try {
      const { a, b, matchId } = pair;
      const newest = await app.api.get(`/api/v1/matches/${matchId}/messages?limit=100`, { token: a.token });
      expect(newest.body.items).toEqual(messages.slice(-100));
      let older = await app.api.get(`/api/v1/matches/${matchId}/messages?limit=100&cursor=${newest.body.next_cursor}`, { token: a.token });
      expect(older.body.items).toEqual(messages.slice(-200, -100));
      while (older.body.next_cursor)
        older = await app.api.get(`/api/v1/matches/${matchId}/messages?limit=100&cursor=${older.body.next_cursor}`, { token: a.token });
      expect(older.body.items[0]).toEqual(messages[0]);
      expect(messages[6]!.shared_interests_mentioned).toEqual(['chess']);
      expect((await app.api.get(`/api/v1/matches/${matchId}`, { token: b.token })).body.last_message).toEqual(messages.at(-1));

      // b has not read a's 300 messages; marking one read counts from that message's own mark.
      expect((await app.api.get(`/api/v1/matches/${matchId}`, { token: b.token })).body.unread_count).toBe(300);
      const tenth = messages[9]!.id;
      const read = await app.api.post(`/api/v1/matches/${matchId}/read`, { token: b.token, body: { message_id: tenth } });
      expect(read.body).toEqual({ match_id: matchId, read_up_to: tenth, unread_count: 300 - 7 });

      const fresh = await app.api.post(`/api/v1/matches/${matchId}/messages`, { token: b.token, body: { body: 'after the move' } });
      expect(fresh.status).toBe(201);
      expect(fresh.body.id).toBeGreaterThan(messages.at(-1)!.id);
      expect((await app.api.get(`/api/v1/matches/${matchId}/messages?limit=2`, { token: a.token })).body.items).toEqual([messages.at(-1), fresh.body]);
    } finally {
      await app.stop();
    }
  });

  it('is a command of the service: `migrate` says what it found', async () => {
    const env = { ...process.env, ...redis.env, LOG_LEVEL: 'silent' };
    const run = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'migrate'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    run.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    run.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => run.on('exit', resolve));
    expect(output).toContain('the data is in key layout 3 already: nothing to move');
    expect(code).toBe(0);
  });
});
