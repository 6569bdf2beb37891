/**
 * What passes cost Redis, per call, for one account holding many: lua/expire_passes-4.lua (run before
 * every feed read, through the feed repository) while it folds passes of an earlier version into the swipe
 * list a step at a time, while it sweeps a backlog of expired ones out, and in the steady state (between
 * sweeps); and lua/undo_pass-3.lua. Redis's own time per script call (SLOWLOG at 0 µs, which itself adds a
 * little), on a redis-server of its own, no service.
 *
 *   npx tsx bench/pass-expiry.ts [--passes 10000]
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { DAY_MS } from '../src/platform/core/dates.js';
import { keys, PASSES_KEPT } from '../src/platform/redis/keys.js';
import { Scripts } from '../src/platform/redis/scripts.js';
import { FeedRepository } from '../src/features/discovery/feed-repository.js';
import { undoPass } from '../src/features/swipes/swipe-repository.js';
import { startPrivateRedis } from './lib/private-redis.js';

const HOUR_MS = 3_600_000;

/** One measured stage: Redis's time of each script call, µs, and what the account holds after it. */
export type PassExpiryStage = { what: string; micros: number[]; swipeList: number; passes: number };

export async function runPassExpiry(passes: number): Promise<PassExpiryStage[]> {
  const server = await startPrivateRedis('pass-expiry');
  const redis = new Redis(server.url);
  try {
    const scripts = new Scripts(redis);
    const feeds = new FeedRepository(redis, scripts);
    const id = 1;
    const [swipeList, passList] = [keys.swipes('agent', id), keys.passes('agent', id)];
    const now = Date.now();
    const targets = Array.from({ length: passes }, (_, i) => String(100_000 + i));

    /**
     * Redis's time of each script call `run` makes, µs (SLOWLOG also lists the commands inside a script:
     * left out; so is a first call's EVAL, which compiles the script once).
     */
    const scriptMicros = async (run: () => Promise<unknown>): Promise<number[]> => {
      await redis.config('SET', 'slowlog-max-len', '1000000');
      await redis.config('SET', 'slowlog-log-slower-than', '0');
      await redis.slowlog('RESET');
      await run();
      const log = (await redis.slowlog('GET', 1_000_000)) as Array<[number, number, number, string[]]>;
      await redis.config('SET', 'slowlog-log-slower-than', '10000');
      return log.filter((entry) => /^evalsha$/i.test(String(entry[3][0]))).map((entry) => entry[2]);
    };
    const stages: PassExpiryStage[] = [];
    const stage = async (what: string, run: () => Promise<unknown>) => {
      const micros = await scriptMicros(run);
      stages.push({ what, micros, swipeList: await redis.hlen(swipeList), passes: await redis.zcard(passList) });
    };
    /** A feed read's settling of the passes at `nowMs`, expiring those made at or before `cutoffMs`. */
    const settle = (nowMs: number, cutoffMs: number) => feeds.settlePasses('agent', id, nowMs, cutoffMs);
    /** Whether the account's swipe list is between two sweeps (the last one ran to its end). */
    const betweenSweeps = async () => (await redis.get(keys.passesTimed('agent', id)))?.startsWith('@') ?? false;

    // The layout of an earlier version: a bare 'pass' in the swipe list, its time in the passes.
    await redis.hset(swipeList, Object.fromEntries(targets.map((target) => [target, 'pass'])));
    await redis.zadd(passList, ...targets.flatMap((target, i) => [now - DAY_MS + i, target]));
    await settle(now, 0); // loads the script (EVAL): a first step
    await stage(`folding ${passes} passes of an earlier version`, async () => {
      while ((await redis.zcard(passList)) > PASSES_KEPT || !(await betweenSweeps())) await settle(now, 0);
    });
    await stage(`expiring ${passes} passes, a sweep page a read`, async () => {
      while ((await redis.hlen(swipeList)) > 0) await settle(now + HOUR_MS, now + DAY_MS);
    });

    await redis.hset(swipeList, Object.fromEntries(targets.map((target, i) => [target, String(now + i)])));
    await redis.zadd(passList, ...targets.slice(-PASSES_KEPT).flatMap((target) => [now + passes, target]));
    while (!(await betweenSweeps())) await settle(now + 2 * HOUR_MS, 0); // a sweep that finds nothing due
    await stage(`steady: ${passes} passes standing, between sweeps`, async () => {
      for (let i = 0; i < 200; i++) await settle(now + 2 * HOUR_MS, 0);
    });

    const undoKeys = [keys.accountRateLimit('like', 'agent', id), swipeList, passList];
    await scripts.run(undoPass, undoKeys, [0, now, 0, 1_000_000, 60_000]); // loads the script
    const last = targets[passes - 1]!;
    await stage(`undo_pass with ${passes} passes standing`, async () => {
      for (let i = 0; i < 200; i++) {
        const { status } = await scripts.run(undoPass, undoKeys, [last, now + passes, 300_000, 1_000_000, 60_000]);
        if (status !== 'undone') throw new Error(`undo_pass answered ${status}`);
        // The pass again, so that each call undoes a last pass (these commands are not counted).
        await redis.hset(swipeList, last, String(now + passes));
        await redis.zadd(passList, now + passes, last);
      }
    });
    return stages;
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

function report({ what, micros }: PassExpiryStage) {
  const sorted = [...micros].sort((a, b) => a - b);
  const at = (share: number) => String(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0).padStart(5);
  console.log(`${what.padEnd(52)} ${String(sorted.length).padStart(4)} calls   median ${at(0.5)} µs   p99 ${at(0.99)} µs   max ${at(1)} µs`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { passes: { type: 'string', default: '10000' } } });
  for (const stage of await runPassExpiry(Number(values.passes))) report(stage);
}
