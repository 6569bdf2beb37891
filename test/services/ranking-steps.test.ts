import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { FeedRanker } from '../../src/features/discovery/feed-ranker.js';
import { keys } from '../../src/platform/redis/keys.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { loadScripts } from '../../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR } from '../../src/platform/redis/scripts.js';
import { startDiscoveryStore, type DiscoveryStore } from '../support/discovery-store.js';
import { eventually } from '../support/eventually.js';
import { RedisMonitor } from '../support/redis-monitor.js';

let store: DiscoveryStore;
beforeAll(async () => {
  store = await startDiscoveryStore();
});
afterAll(() => store?.cleanup());
const INTERESTS = ['kites', 'lutes', 'moss', 'newts', 'oboes'];
const OWNERS: number[] = [];
let ACCOUNT = 0;

/** Every owner's feed emptied and counted as ranked with room, the account's own feed and record gone. */
async function reset() {
  for (const id of [...OWNERS, ACCOUNT]) await store.redis.del(keys.feed('agent', id));
  await store.redis.hdel(keys.spreadInterests('agent', indexPartition(ACCOUNT)), String(ACCOUNT));
  for (const id of OWNERS) await store.redis.zadd(keys.feedFloors('agent', indexPartition(id)), 0, id);
  await store.redis.zrem(keys.feedFloors('agent', indexPartition(ACCOUNT)), String(ACCOUNT));
}

/** The account's feed, and its score in every other feed. */
async function state() {
  const own = await store.redis.zrange(keys.feed('agent', ACCOUNT), '0', '-1', 'WITHSCORES');
  const placed = await Promise.all(OWNERS.map((id) => store.redis.zscore(keys.feed('agent', id), String(ACCOUNT))));
  return { own, placed };
}

/** The commands (with their arguments) Redis runs while `during` runs, scripts' own calls included. */
async function watch(during: () => Promise<unknown>): Promise<Array<{ args: string[]; fromScript: boolean }>> {
  // MONITOR sees one node: this file is single-only (vitest.config.ts).
  const { host, port } = (store.redis as Redis).options;
  const monitor = await RedisMonitor.open(`redis://${host}:${port}`);
  const seen: Array<{ args: string[]; fromScript: boolean }> = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => seen.push({ args: args.map(String), fromScript: source === 'lua' }));
  // Markers around `during`: the monitor sees commands in the order Redis runs them.
  const marked = (text: string) => seen.findIndex((c) => c.args[0]?.toLowerCase() === 'echo' && c.args[1] === text);
  await eventually('the monitor running', async () => {
    await store.redis.echo('watch-start');
    return marked('watch-start') >= 0;
  });
  await during();
  await store.redis.echo('watch-end');
  await eventually('the end marker seen', () => marked('watch-end') >= 0);
  monitor.disconnect();
  return seen.slice(seen.map((c) => c.args[1]).lastIndexOf('watch-start') + 1, marked('watch-end'));
}

describe('a ranking job split into bounded Redis calls', () => {
  beforeAll(async () => {
    for (let i = 0; i < 300; i++) OWNERS.push(await store.seed([...new Set([INTERESTS[i % 5]!, INTERESTS[(i * 7) % 5]!])]));
    ACCOUNT = await store.seed(['kites', 'moss', 'oboes']);
  });

  it('does the same work as in large calls, no call examining more than its step', async () => {
    await reset();
    const whole = await new FeedRanker(store.index, store.feeds, { candidates: 1_000, minSample: 100, step: 1_000_000 }).refresh('agent', ACCOUNT);
    const expected = await state();
    expect(whole!.feedsChanged).toBeGreaterThan(100);

    await reset();
    const step = 40;
    const stepped = new FeedRanker(store.index, store.feeds, { candidates: 1_000, minSample: 100, step });
    let outcome: Awaited<ReturnType<FeedRanker['refresh']>>;
    const commands = await watch(async () => (outcome = await stepped.refresh('agent', ACCOUNT)));
    expect(outcome!.feedsChanged).toBe(whole!.feedsChanged);
    expect(await state()).toEqual(expected);

    const lookups = commands.filter((c) => !c.fromScript && ['smismember', 'zmscore', 'hmget'].includes(c.args[0]!.toLowerCase()));
    expect(lookups.length).toBeGreaterThan(0);
    for (const { args } of lookups) expect(args.length - 2, args[0]).toBeLessThanOrEqual(step); // command, key, then the members
    // spreading: one script call per feed (40 entries' worth), so many calls, each naming one owner
    const scripts = commands.filter((c) => !c.fromScript && ['evalsha', 'eval'].includes(c.args[0]!.toLowerCase()));
    const spreadSha = loadScripts(LUA_DIRS, SHARED_LUA_DIR).get('spread_into_feeds')!.sha;
    const spreads = scripts.filter((c) => c.args[1] === spreadSha);
    expect(spreads.length).toBeGreaterThanOrEqual(whole!.targets);
    for (const { args } of spreads) expect(Number(args[2])).toBe(4); // one owner's feed, swipes, likers and hidden mark
  });
});
