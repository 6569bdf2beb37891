/**
 * What a stored swipe costs Redis as an account's swipes pile up: the capacity model's 50 swipes a day
 * (30 % likes) kept for 30 days is 1,500 swipes an account. Starts the service in this process on a private
 * redis-server (no persistence), or with `--cluster` on a private three-master Redis Cluster, and `--swipers` swipers each swipe `--swipes` other accounts through the
 * swipe service (its scripts, no HTTP); the targets never swipe back, so nothing matches. At each checkpoint
 * (after 50, 500 and the last swipe of each swiper) it prints `used_memory` per stored swipe and, per key
 * family, `MEMORY USAGE` with the encoding Redis chose: the swipers' swipe lists and passes, the pairs'
 * hashes (a like's), and what a like leaves in its target's keys (the likers kept and the lift in the
 * target's feed).
 *
 *   npx tsx bench/swipe-memory.ts [--swipers 10] [--swipes 1500] [--likes 0.3] [--cluster] [--json]
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { keys } from '../src/platform/redis/keys.js';
import { loadScripts } from '../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR } from '../src/platform/redis/scripts.js';
import { startRedisCluster } from '../src/platform/redis-server/redis-cluster-process.js';
import type { RedisTopology } from '../src/platform/redis/redis-topology.js';
import { prng, shuffle } from './lib/profiles.js';
import { startPrivateRedis } from './lib/private-redis.js';
import { scanNode } from '../src/platform/redis/scan-keys.js';
import { startBenchApp } from './lib/bench-app.js';

/** One key family at a checkpoint: its bytes per entry it holds, and the encodings its keys had. */
export type FamilyCost = { bytes: number; entries: number; bytes_per_entry: number; encodings: string[] };

export type SwipeCheckpoint = {
  swipes_per_swiper: number;
  /** used_memory after less before, over every swipe stored. */
  bytes_per_swipe: number;
  swipe_lists: FamilyCost;
  passes: FamilyCost;
  pairs: FamilyCost;
  /** The likers' lists and the feeds of the liked accounts, per like. */
  targets_per_like: number;
};

export type SwipeMemoryResult = { topology: RedisTopology['kind']; swipers: number; like_share: number; checkpoints: SwipeCheckpoint[] };

/** A private Redis or Redis Cluster, and a client on it that sees every master. */
async function privateStore(kind: RedisTopology['kind']) {
  if (kind === 'cluster') {
    const cluster = await startRedisCluster({ appendfsync: 'everysec' });
    const probe = new Cluster(cluster.nodes.map((node) => ({ host: node.split(':')[0], port: Number(node.split(':')[1]) })));
    return { topology: { kind, nodes: cluster.nodes } as RedisTopology, probe, masters: () => probe.nodes('master'), stop: () => cluster.cleanup() };
  }
  const redis = await startPrivateRedis('swipe-memory');
  const probe = new Redis(redis.url);
  return { topology: redis.topology, probe, masters: () => [probe], stop: redis.stop };
}

const CHECKPOINTS = [50, 500];

export async function runSwipeMemory(opts: {
  swipers: number;
  swipes: number;
  likeShare: number;
  topology?: RedisTopology['kind'];
  log?: (line: string) => void;
}): Promise<SwipeMemoryResult> {
  const { swipers, swipes, likeShare, topology = 'single', log = () => {} } = opts;
  const store = await privateStore(topology);
  const { probe } = store;
  const app = await startBenchApp(store.topology, { LIKE_RATE_LIMIT: 100_000 });
  // Data only, on every master: used_memory less the clients' and the append-only file's buffers.
  const usedMemory = async () => {
    let bytes = 0;
    for (const master of store.masters()) {
      const info = await master.info('memory');
      const field = (name: string) => Number(new RegExp(`${name}:(\\d+)`).exec(info)?.[1] ?? 0);
      bytes += field('used_memory') - field('mem_clients_normal') - field('mem_aof_buffer');
    }
    return bytes;
  };
  const family = async (names: string[], size: (key: string) => Promise<number>): Promise<FamilyCost> => {
    let bytes = 0;
    let entries = 0;
    const encodings = new Set<string>();
    for (const key of names) {
      bytes += (await probe.memory('USAGE', key, 'SAMPLES', '0')) ?? 0;
      entries += await size(key);
      const encoding = await probe.object('ENCODING', key);
      if (typeof encoding === 'string') encodings.add(encoding);
    }
    return { bytes, entries, bytes_per_entry: entries ? Math.round(bytes / entries) : 0, encodings: [...encodings].sort() };
  };
  const keysMatching = async (pattern: string) => (await Promise.all(store.masters().map((master) => scanNode(master, pattern)))).flat();

  try {
    // Every script on every master before the first reading: a script's first call would count its text.
    for (const master of store.masters()) for (const { lua } of loadScripts(LUA_DIRS, SHARED_LUA_DIR).values()) await master.script('LOAD', lua);
    const accounts = swipers + swipes;
    log(`${accounts} accounts ...`);
    const ids: number[] = [];
    for (let n = 0; n < accounts; n += 100) {
      const made = await Promise.all(
        Array.from({ length: Math.min(100, accounts - n) }, (_, j) =>
          app.users.create({
            pool: 'agent',
            email: `swipe-memory-${n + j}@example.com`,
            passwordHash: 'none',
            displayName: `Swiper ${n + j}`,
            birthdate: '1990-01-01',
            gender: 'other',
            bio: '',
            interests: ['chess'],
            city: '',
            state: '',
            themeId: 1,
          }),
        ),
      );
      ids.push(...made.map((user) => user!.id));
    }
    const swiperIds = ids.slice(0, swipers);
    const targetIds = ids.slice(swipers);
    const orders = swiperIds.map((id) => {
      const random = prng(id);
      return { id, order: shuffle([...targetIds], random), random };
    });
    await new Promise((r) => setTimeout(r, 300));
    const before = await usedMemory();
    const checkpoints: SwipeCheckpoint[] = [];
    let likes = 0;
    const liked = new Set<number>();
    let done = 0;
    for (const stop of [...CHECKPOINTS.filter((c) => c < swipes), swipes]) {
      log(`swiping up to ${stop} a swiper ...`);
      for (; done < stop; done++) {
        const kinds = orders.map(({ random }) => (random() < likeShare ? 'like' : 'pass'));
        orders.forEach(({ order }, s) => {
          if (kinds[s] !== 'like') return;
          likes++;
          liked.add(order[done]!);
        });
        await Promise.all(orders.map(({ id, order }, s) => app.swipeService.swipe({ pool: 'agent', userId: id }, order[done]!, kinds[s]!)));
      }
      // The taste notes and lifts follow the answers.
      await new Promise((r) => setTimeout(r, 300));
      const stored = done * swipers;
      const after = await usedMemory();
      const pairKeys = await keysMatching('am:agent:*:pair:*');
      const targetBytes = await family(
        [...liked].flatMap((id) => [keys.likers('agent', id), keys.feed('agent', id)]),
        async () => 0,
      );
      checkpoints.push({
        swipes_per_swiper: done,
        bytes_per_swipe: Math.round((after - before) / stored),
        swipe_lists: await family(
          swiperIds.map((id) => keys.swipes('agent', id)),
          (key) => probe.hlen(key),
        ),
        passes: await family(
          swiperIds.map((id) => keys.passes('agent', id)),
          (key) => probe.zcard(key),
        ),
        pairs: await family(pairKeys, async () => 1),
        targets_per_like: likes ? Math.round(targetBytes.bytes / likes) : 0,
      });
    }
    return { topology, swipers, like_share: likeShare, checkpoints };
  } finally {
    probe.disconnect();
    await app.stop();
    await store.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      swipers: { type: 'string', default: '10' },
      swipes: { type: 'string', default: '1500' },
      likes: { type: 'string', default: '0.3' },
      cluster: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const r = await runSwipeMemory({
    swipers: Number(values.swipers),
    swipes: Number(values.swipes),
    likeShare: Number(values.likes),
    topology: values.cluster ? 'cluster' : 'single',
    log: (line) => console.error(line),
  });
  if (values.json) console.log(JSON.stringify(r, null, 2));
  else {
    const show = (f: FamilyCost) => `${f.bytes_per_entry} B an entry (${f.encodings.join(', ') || 'none'})`;
    console.log(`\nRedis bytes per stored swipe (${r.topology} Redis), ${r.swipers} swipers, ${Math.round(r.like_share * 100)} % likes`);
    for (const c of r.checkpoints) {
      console.log(
        `  ${String(c.swipes_per_swiper).padStart(5)} swipes a swiper: ${c.bytes_per_swipe} B a swipe; swipe list ${show(c.swipe_lists)}; passes ${show(c.passes)}; ` +
          `pair ${show(c.pairs)}; likers and lifts ${c.targets_per_like} B a like`,
      );
    }
  }
  process.exit(0);
}
