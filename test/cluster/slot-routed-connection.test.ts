import keySlot from 'cluster-key-slot';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScripts } from '../../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR } from '../../src/platform/redis/scripts.js';
import { SlotRoutedConnection } from '../../src/platform/redis/slot-routed-connection.js';
import { eventually } from '../support/eventually.js';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.js';

let cluster: RedisCluster;
/** A plain connection to each master, in the order of `cluster.ports`. */
let masters: Redis[];
let ids: string[];
let lean: SlotRoutedConnection;

const RATE_LIMIT = loadScripts(LUA_DIRS, SHARED_LUA_DIR).get('rate_limit')!;
/** lua/rate_limit-1.lua on one key: [allowed, hits in the window, …]; the hits say which calls reached the key. */
const hit = async (key: string, member: string) => ((await lean.evalsha(RATE_LIMIT, [key], [1_000, 600_000, member])) as number[])[1];

beforeAll(async () => {
  cluster = await startRedisCluster();
  masters = cluster.ports.map((port) => new Redis(port, '127.0.0.1'));
  ids = await Promise.all(masters.map((node) => node.cluster('MYID')));
  lean = new SlotRoutedConnection(cluster.nodes, 60_000);
  await lean.connect();
});
afterAll(async () => {
  await lean?.quit();
  for (const node of masters ?? []) node.disconnect();
  await cluster?.cleanup();
});

/** Which master (index in `masters`) serves each slot, as the cluster says now. */
async function owners(): Promise<number[]> {
  const out = new Array<number>(16_384).fill(-1);
  for (const [first, last, master] of await masters[0]!.cluster('SLOTS')) out.fill(cluster.ports.indexOf(master![1]), first, last + 1);
  return out;
}

/** `count` keys of distinct slots served by master `at`. */
async function keysOn(at: number, count: number, prefix: string): Promise<string[]> {
  const served = await owners();
  const found: string[] = [];
  const slots = new Set<number>();
  for (let n = 0; found.length < count; n++) {
    const key = `{${prefix}${n}}`;
    const slot = keySlot(key);
    if (served[slot] !== at || slots.has(slot)) continue;
    slots.add(slot);
    found.push(key);
  }
  return found;
}

/** Starts moving `slot` from master `from` to `to` and moves its keys: the state in which `from` answers ASK. */
async function startMigration(slot: number, from: number, to: number) {
  await masters[to]!.cluster('SETSLOT', slot, 'IMPORTING', ids[from]!);
  await masters[from]!.cluster('SETSLOT', slot, 'MIGRATING', ids[to]!);
  const keys = await masters[from]!.cluster('GETKEYSINSLOT', slot, 1_000);
  if (keys.length > 0) await masters[from]!.call('MIGRATE', '127.0.0.1', cluster.ports[to]!, '', 0, 10_000, 'KEYS', ...keys);
}

/** Gives `slot` to master `to` on every master (the importing one first, as a migration ends). */
async function finishMigration(slot: number, to: number) {
  for (const node of [masters[to]!, ...masters.filter((_, i) => i !== to)]) await node.cluster('SETSLOT', slot, 'NODE', ids[to]!);
}

const errorReplies = async (node: Redis, kind: 'MOVED' | 'ASK') =>
  Number(new RegExp(`errorstat_${kind}:count=(\\d+)`).exec(await node.info('errorstats'))?.[1] ?? 0);
const slotMapReads = async () => {
  const stats = await Promise.all(masters.map((node) => node.info('commandstats')));
  return stats.reduce((sum, text) => sum + Number(/cmdstat_cluster\|slots:calls=(\d+)/.exec(text)?.[1] ?? 0), 0);
};
const resetStats = () => Promise.all(masters.map((node) => node.config('RESETSTAT')));

describe('SlotRoutedConnection', () => {
  it('sends each call to the master of its slot, on all three masters', async () => {
    await resetStats();
    for (const [at, node] of masters.entries()) {
      const [scriptKey, hashKey] = await keysOn(at, 2, `reach-${at}-`);
      expect(await hit(scriptKey!, 'a')).toBe(1);
      expect(await hit(scriptKey!, 'b')).toBe(2);
      await node.hset(hashKey!, 'x', `on ${at}`, 'y', 'é');
      expect(await lean.hget(hashKey!, 'x')).toBe(`on ${at}`);
      expect(await lean.hmget(hashKey!, ['y', 'missing', 'x'])).toEqual(['é', null, `on ${at}`]);
      expect(await node.zcard(scriptKey!)).toBe(2);
    }
    // Each went straight to its master: none was redirected.
    for (const node of masters) expect(await errorReplies(node, 'MOVED')).toBe(0);
  });

  it('reconnects to a master that was restarted, reading the slot map again', async () => {
    const [key] = await keysOn(2, 1, 'restart-');
    expect(await hit(key!, 'before')).toBe(1);
    await resetStats();
    await cluster.restartNode(cluster.ports[2]!);
    await eventually('calls on the restarted master answered', async () => (await hit(key!, 'after').catch(() => false)) === 2);
    await eventually('the slot map read again', async () => (await slotMapReads()) > 0);
  });

  it('follows MOVED after a slot moved to another master, and reads the whole slot map again', async () => {
    const [key, ...others] = await keysOn(0, 11, 'moved-');
    expect(await hit(key!, 'before')).toBe(1);
    await startMigration(keySlot(key!), 0, 1);
    await finishMigration(keySlot(key!), 1);
    // Slots without keys move by SETSLOT alone: the client learns of them only by reading the map again.
    for (const other of others) await finishMigration(keySlot(other), 1);
    await resetStats();

    expect(await hit(key!, 'after')).toBe(2);
    expect(await errorReplies(masters[0]!, 'MOVED')).toBe(1);
    expect(await masters[1]!.zcard(key!)).toBe(2);
    // A slot moved at the same time is called on its new master without a MOVED once the map is read
    // again: each try takes a slot not called yet, whose MOVED alone would not have taught the client.
    const fresh = others[Symbol.iterator]();
    const direct = await eventually('a moved slot called on its new master directly', async () => {
      const other = fresh.next().value;
      if (!other) throw new Error('every moved slot was redirected: the slot map was not read again');
      const moved = await errorReplies(masters[0]!, 'MOVED');
      expect(await hit(other, 'direct')).toBe(1);
      return (await errorReplies(masters[0]!, 'MOVED')) === moved && other;
    });
    expect(await masters[1]!.zcard(direct)).toBe(1);
  });

  it('follows ASK to the importing master while a slot migrates, without changing the map', async () => {
    const [tag] = await keysOn(2, 1, 'ask-');
    const [scriptKey, hashKey] = [`${tag}:hits`, `${tag}:hash`];
    expect(await hit(scriptKey, 'before')).toBe(1);
    await masters[2]!.hset(hashKey, 'x', 'moved along');
    const slot = keySlot(tag!);
    await startMigration(slot, 2, 0);
    // The importing master has never run the script: EVALSHA answers NOSCRIPT, and EVAL goes behind ASKING too.
    await masters[0]!.script('FLUSH');
    await resetStats();

    // The keys are on the importing master alone now: the counts go on from theirs.
    expect(await hit(scriptKey, 'during')).toBe(2);
    expect(await lean.hget(hashKey, 'x')).toBe('moved along');
    expect(await hit(scriptKey, 'during again')).toBe(3);
    // Every call asked the migrating master first: an ASK does not move the slot in the client's map.
    expect(await errorReplies(masters[2]!, 'ASK')).toBe(3);

    await finishMigration(slot, 0);
    expect(await hit(scriptKey, 'after')).toBe(4);
    expect(await masters[0]!.zcard(scriptKey)).toBe(4);
  });
});
