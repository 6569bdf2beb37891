import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LUA_DIRS, SHARED_LUA_DIR } from '../../src/platform/redis/scripts.js';
import { loadScripts } from '../../src/platform/redis/script-loader.js';
import { keys } from '../../src/platform/redis/keys.js';
import { INDEX_PARTITIONS, indexPartition } from '../../src/platform/redis/key-space.js';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { eventually } from '../support/eventually.js';
import { countRedisRoundTrips, tallyOf, type RequestTally } from '../support/redis-round-trips.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { onEveryMaster, startStack } from '../support/stack.js';

/**
 * The Redis budget of the hot requests (docs/performance.md, "Redis budget"): the round trips each waits
 * on in sequence, and the commands it sends, between its arrival and its answer. Counted exactly at the
 * client side (test/support/redis-round-trips.ts), with the scripts loaded and the tokens used once.
 */
const BUDGET = {
  me: { roundTrips: 1, commands: 1 },
  // A first pass on a target: a later pass on the same target is decided on the pair too (2 round trips, 3 commands).
  pass: { roundTrips: 1, commands: 2 },
  like: { roundTrips: 2, commands: 5 },
  match: { roundTrips: 3, commands: 10 },
  idempotentPass: { roundTrips: 2, commands: 4 },
  idempotentLike: { roundTrips: 2, commands: 6 },
  message: { roundTrips: 2, commands: 3 },
  feed: { roundTrips: 2, commands: 30 },
};

countRedisRoundTrips();
let stack: Awaited<ReturnType<typeof startStack>>;
let client: RedisClient;

beforeAll(async () => {
  stack = await startStack({ LIKE_RATE_LIMIT: 1000, MESSAGE_RATE_LIMIT: 1000, DISCOVERY_RATE_LIMIT: 1000 });
  client = stack.redis.client();
  const scripts = [...loadScripts(LUA_DIRS, SHARED_LUA_DIR).values()];
  await onEveryMaster(client, (node) => Promise.all(scripts.map((script) => node.script('LOAD', script.lua))));
});
afterAll(async () => {
  client?.disconnect();
  await stack?.stop();
});

/** Accounts whose tokens were used once (a token is verified against Redis on its first use only). */
async function warmAccounts(count: number, interests?: string[]): Promise<SeededAccount[]> {
  const accounts = await seedAccounts(stack.app, 'agent', count, interests);
  for (const account of accounts) expect((await stack.api.get('/api/v1/me', { token: account.token })).status).toBe(200);
  return accounts;
}

const post = (path: string, token: string, body?: unknown, headers?: Record<string, string>) => stack.api.post(path, { token, body, headers });

function report(name: keyof typeof BUDGET, tally: RequestTally) {
  if (process.env.SHOW_REDIS_BUDGET) console.log(`${name}: ${tally.roundTrips} round trips, ${tally.commands.length} commands: ${tally.commands.join(', ')}`);
  expect.soft(tally.roundTrips, `${name}: round trips (${tally.commands.join(', ')})`).toBeLessThanOrEqual(BUDGET[name].roundTrips);
  expect.soft(tally.commands.length, `${name}: commands (${tally.commands.join(', ')})`).toBeLessThanOrEqual(BUDGET[name].commands);
}

describe('the Redis budget of the hot requests', () => {
  it('GET /me', async () => {
    const [a] = (await warmAccounts(1)) as [SeededAccount];
    const { result, tally } = await tallyOf(() => stack.api.get('/api/v1/me', { token: a.token }));
    expect(result.status).toBe(200);
    report('me', tally);
  });

  it('a pass, a like without a match, a like that creates a match', async () => {
    const [a, b, c, d] = (await warmAccounts(4)) as [SeededAccount, SeededAccount, SeededAccount, SeededAccount];
    const pass = await tallyOf(() => post(`/api/v1/likes/${b.user_id}?kind=pass`, a.token));
    expect(pass.result.body.outcome).toBe('recorded');
    report('pass', pass.tally);
    const like = await tallyOf(() => post(`/api/v1/likes/${c.user_id}?kind=like`, a.token));
    expect(like.result.body.outcome).toBe('recorded');
    report('like', like.tally);
    expect((await post(`/api/v1/likes/${a.user_id}?kind=like`, d.token)).body.outcome).toBe('recorded');
    const match = await tallyOf(() => post(`/api/v1/likes/${d.user_id}?kind=like`, a.token));
    expect(match.result.body.outcome).toBe('matched');
    report('match', match.tally);
  });

  it('a pass and a like with an Idempotency-Key', async () => {
    const [a, b, c] = (await warmAccounts(3)) as [SeededAccount, SeededAccount, SeededAccount];
    const pass = await tallyOf(() => post(`/api/v1/likes/${b.user_id}?kind=pass`, a.token, undefined, { 'Idempotency-Key': crypto.randomUUID() }));
    expect(pass.result.body.outcome).toBe('recorded');
    report('idempotentPass', pass.tally);
    const like = await tallyOf(() => post(`/api/v1/likes/${c.user_id}?kind=like`, a.token, undefined, { 'Idempotency-Key': crypto.randomUUID() }));
    expect(like.result.body.outcome).toBe('recorded');
    report('idempotentLike', like.tally);
  });

  it('a message', async () => {
    const [a, b] = (await warmAccounts(2)) as [SeededAccount, SeededAccount];
    await post(`/api/v1/likes/${b.user_id}?kind=like`, a.token);
    const matchId = (await post(`/api/v1/likes/${a.user_id}?kind=like`, b.token)).body.match.id as number;
    expect((await post(`/api/v1/matches/${matchId}/messages`, a.token, { body: 'hello' })).status).toBe(201);
    const { result, tally } = await tallyOf(() => post(`/api/v1/matches/${matchId}/messages`, b.token, { body: 'hello back' }));
    expect(result.status).toBe(201);
    report('message', tally);
  });

  it('a feed read: a page of 50 whose accounts lie in every index partition', async () => {
    const accounts = await warmAccounts(60);
    const viewer = accounts[0]!;
    const read = () => stack.api.get('/api/v1/discovery/feed?limit=50', { token: viewer.token });
    expect((await read()).status).toBe(200);
    await eventually(
      'the feed ranked',
      async () => (await client.zscore(keys.rankedFeeds('agent', indexPartition(viewer.user_id)), String(viewer.user_id))) !== null,
    );
    const { result, tally } = await tallyOf(read);
    expect(result.status).toBe(200);
    const shown = result.body.items as Array<{ user: { id: number } }>;
    expect(shown.length).toBe(50);
    expect(new Set(shown.map(({ user }) => indexPartition(user.id))).size).toBe(INDEX_PARTITIONS);
    report('feed', tally);
  });
});
