/**
 * What passes cost Redis, per call, for one account holding many: lua/expire_passes-4.lua (run before
 * every feed read) while it times passes of an earlier version a step at a time, while it expires a
 * backlog, and in the steady state (nothing due); and lua/undo_pass-3.lua. Redis's own time per script
 * call (SLOWLOG at 0 µs, which itself adds a little), on a redis-server of its own, no service.
 *
 *   npx tsx bench/pass-expiry.ts [--passes 10000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { DAY_MS } from '../src/platform/core/dates.js';
import { RedisProcess } from '../src/platform/redis-server/redis-process.js';
import { keys } from '../src/platform/redis/keys.js';
import { Scripts } from '../src/platform/redis/scripts.js';
import { expirePasses } from '../src/features/discovery/feed-repository.js';
import { undoPass } from '../src/features/swipes/swipe-repository.js';

const { values } = parseArgs({ options: { passes: { type: 'string', default: '10000' } } });
const passes = Number(values.passes);
const STEP = 200; // as src/features/discovery/feed-repository.ts

const dir = mkdtempSync(join(tmpdir(), 'pass-expiry-'));
const server = await new RedisProcess({ dir, persist: false }).start();
const redis = new Redis(server.url);
const scripts = new Scripts(redis);
const id = 1;
const expireKeys = [keys.swipes('agent', id), keys.passes('agent', id), keys.passesTimed('agent', id), keys.hidden('agent', id)];
const undoKeys = [keys.accountRateLimit('like', 'agent', id), keys.swipes('agent', id), keys.passes('agent', id)];
const now = Date.now();
const targets = Array.from({ length: passes }, (_, i) => String(100_000 + i));

/**
 * Redis's time of each script call `run` makes, µs (SLOWLOG also lists the commands inside a script: left
 * out; so is a first call's EVAL, which compiles the script once).
 */
async function scriptMicros(run: () => Promise<unknown>): Promise<number[]> {
  await redis.config('SET', 'slowlog-max-len', '1000000');
  await redis.config('SET', 'slowlog-log-slower-than', '0');
  await redis.slowlog('RESET');
  await run();
  const log = (await redis.slowlog('GET', 1_000_000)) as Array<[number, number, number, string[]]>;
  await redis.config('SET', 'slowlog-log-slower-than', '10000');
  return log.filter((entry) => /^evalsha$/i.test(String(entry[3][0]))).map((entry) => entry[2]);
}

function report(what: string, micros: number[]) {
  const sorted = [...micros].sort((a, b) => a - b);
  const at = (share: number) => String(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0).padStart(5);
  console.log(`${what.padEnd(52)} ${String(sorted.length).padStart(4)} calls   median ${at(0.5)} µs   p99 ${at(0.99)} µs   max ${at(1)} µs`);
}

const expire = (cutoff: number) => scripts.run(expirePasses, expireKeys, [cutoff, STEP, now - DAY_MS]);
await redis.hset(keys.swipes('agent', id), Object.fromEntries(targets.map((target) => [target, 'pass'])));

await expire(0); // loads the script (EVAL), on an empty passes-timed mark: it times a first step
report(
  `timing ${passes} passes of an earlier version`,
  await scriptMicros(async () => {
    while ((await redis.get(keys.passesTimed('agent', id))) !== 'done') await expire(0);
  }),
);

report(
  `expiring ${passes} passes, ${STEP} a read`,
  await scriptMicros(async () => {
    while ((await redis.zcard(keys.passes('agent', id))) > 0) await expire(now);
  }),
);

await redis.hset(keys.swipes('agent', id), Object.fromEntries(targets.map((target) => [target, 'pass'])));
await redis.zadd(keys.passes('agent', id), ...targets.flatMap((target, i) => [now + i, target]));
report(
  `steady: ${passes} passes standing, none due`,
  await scriptMicros(async () => {
    for (let i = 0; i < 200; i++) await expire(now - 1);
  }),
);

await scripts.run(undoPass, undoKeys, [0, now, 0, 1_000_000, 60_000]); // loads the script
report(
  `undo_pass with ${passes} passes standing`,
  await scriptMicros(async () => {
    for (let i = 0; i < 200; i++) await scripts.run(undoPass, undoKeys, [targets[passes - 1 - i]!, now + passes, 300_000, 1_000_000, 60_000]);
  }),
);

redis.disconnect();
await server.stop();
rmSync(dir, { recursive: true, force: true });
