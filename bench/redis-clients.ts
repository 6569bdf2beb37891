/**
 * What a Redis call costs this process's CPU, by client: ioredis (with the service's options), node-redis,
 * valkey-glide and the service's hot connection (src/platform/redis/script-connection.ts). Starts a private
 * redis-server (no persistence), writes agents and matches through the service's own code, then for each
 * call shape of the request path and each client makes `--calls` calls with a fixed number in flight
 * (16, then 1), reading `process.cpuUsage()` (every thread of the process: glide's Rust threads count) and
 * the wall clock around them. Clients take turns within a round, in a rotating order; `--rounds` rounds,
 * and the median of each cell is reported.
 *
 * Shapes: the swipe's two scripts (lua/begin_swipe-6.lua, lua/record_swipe.lua for a pass), its read of the
 * target's account (HGET), a message's append (lua/append_message.lua) and a feed page's cards (HMGET of
 * ten accounts), with the service's keys and arguments.
 *
 *   npx tsx bench/redis-clients.ts [--calls 20000] [--rounds 3] [--json]
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { GlideClient, Script } from '@valkey/valkey-glide';
import { createClient } from 'redis';
import { indexPartition, matchShard, pairShard, SHARDS } from '../src/platform/redis/key-space.js';
import { keys, PASSES_KEPT } from '../src/platform/redis/keys.js';
import { DEFAULT_THREAD_BOUNDS } from '../src/features/matches/message-repository.js';
import { entryFields } from '../src/features/matches/thread-entries.js';
import { createRedis } from '../src/platform/redis/redis.js';
import { ScriptConnection, type ScriptSource } from '../src/platform/redis/script-connection.js';
import { loadScripts } from '../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR, Scripts } from '../src/platform/redis/scripts.js';
import { storedAccountOf } from '../src/features/accounts/user-repository.js';
import { storedInterests } from '../src/features/accounts/profile-cards.js';
import { startPrivateRedis } from './lib/private-redis.js';
import { startBenchApp } from './lib/bench-app.js';

type Word = string | number;
type Call = { keys: string[]; args: Word[] };

/** What the bench asks of a client: the calls of the request path's busiest steps. */
type Client = {
  name: string;
  evalsha: (script: ScriptSource & { name: string }, keyList: string[], args: Word[]) => Promise<unknown>;
  hget: (key: string, field: string) => Promise<unknown>;
  hmget: (key: string, fields: string[]) => Promise<unknown>;
  close: () => Promise<void>;
};

type Shape = { name: string; run: (client: Client, i: number) => Promise<unknown> };

export type CellResult = { client: string; shape: string; inflight: number; cpu_us_per_call: number; calls_per_s: number; vs_lean: number };

const POOL = 'agent';
const CLIENT_NAMES = ['hot', 'ioredis', 'node-redis', 'valkey-glide'];
const INTERESTS = ['chess', 'hiking', 'jazz', 'cooking', 'go', 'poetry', 'robotics', 'tea'];

const LOADED = loadScripts(LUA_DIRS, SHARED_LUA_DIR);
const script = (name: string): ScriptSource & { name: string } => {
  const loaded = LOADED.get(name);
  if (!loaded) throw new Error(`no Lua script ${name}`);
  return { name, lua: loaded.lua, sha: loaded.sha };
};

async function openClients(url: string): Promise<Client[]> {
  const { port } = new URL(url);
  // The service's ioredis client, as its script runner uses it (EVALSHA, EVAL on NOSCRIPT), before the reply is decoded.
  const io = createRedis({ kind: 'single', url });
  await io.connect();
  const lean = new ScriptConnection(url);
  await lean.connect();
  const node = createClient({ url });
  await node.connect();
  const glide = await GlideClient.createClient({ addresses: [{ host: '127.0.0.1', port: Number(port) }], requestTimeout: 1_000 });
  const glideScripts = new Map<string, Script>();
  const glideScript = (source: ScriptSource & { name: string }) => {
    let found = glideScripts.get(source.name);
    if (!found) glideScripts.set(source.name, (found = new Script(source.lua)));
    return found;
  };
  const strings = (words: Word[]) => words.map(String);
  return [
    {
      name: 'hot',
      evalsha: (s, k, a) => lean.evalsha(s, k, a),
      hget: (key, field) => lean.hget(key, field),
      hmget: (key, fields) => lean.hmget(key, fields),
      close: () => lean.quit(),
    },
    {
      name: 'ioredis',
      evalsha: (s, k, a) =>
        io.evalsha(s.sha, k.length, ...k, ...a).catch((error: Error) => {
          if (!error.message.startsWith('NOSCRIPT')) throw error;
          return io.eval(s.lua, k.length, ...k, ...a);
        }),
      hget: (key, field) => io.hget(key, field),
      hmget: (key, fields) => io.hmget(key, ...fields),
      close: async () => void (await io.quit()),
    },
    {
      name: 'node-redis',
      evalsha: (s, k, a) => node.evalSha(s.sha, { keys: k, arguments: strings(a) }),
      hget: (key, field) => node.hGet(key, field),
      hmget: (key, fields) => node.hmGet(key, fields),
      close: async () => void (await node.quit()),
    },
    {
      name: 'valkey-glide',
      evalsha: (s, k, a) => glide.invokeScript(glideScript(s), { keys: k, args: strings(a) }),
      hget: (key, field) => glide.hget(key, field),
      hmget: (key, fields) => glide.hmget(key, fields),
      close: async () => {
        for (const s of glideScripts.values()) s.release();
        glide.close();
      },
    },
  ];
}

/** Agents and matches written through the service (its users, swipes and matches), then the service stopped. */
async function seed(url: string, agents: number) {
  const app = await startBenchApp({ kind: 'single', url });
  try {
    const ids: number[] = [];
    for (let n = 0; n < agents; n++) {
      const user = await app.users.create({
        pool: POOL,
        email: `clients-${n}@example.com`,
        passwordHash: 'none',
        displayName: `Caller ${n}`,
        birthdate: '1990-01-01',
        gender: 'other',
        bio: 'Plays a little of everything.',
        interests: INTERESTS.filter((_, i) => (n + i) % 3 === 0),
        city: 'Lisbon',
        state: '',
        themeId: 1,
      });
      ids.push(user!.id);
    }
    const matches: Array<{ a: number; b: number; id: number }> = [];
    for (let i = 0; i + 1 < ids.length; i += 2) {
      const [a, b] = [ids[i]!, ids[i + 1]!];
      await app.swipeService.swipe({ pool: POOL, userId: a }, b, 'like');
      const matched = await app.swipeService.swipe({ pool: POOL, userId: b }, a, 'like');
      matches.push({ a, b, id: matched.match!.id });
    }
    return { ids, matches };
  } finally {
    await app.stop();
  }
}

/** The service's keys and arguments for each shape, over the seeded agents (as swipe- and message-repository build them). */
function shapes(ids: number[], matches: Array<{ a: number; b: number; id: number }>, interests: Map<number, string>): Shape[] {
  const begin = script('begin_swipe');
  const record = script('record_swipe');
  const append = script('append_message');
  const VARIANTS = 256;
  const swipes = Array.from({ length: VARIANTS }, (_, i) => {
    const from = ids[i % ids.length]!;
    const to = ids[(i * 7 + 3) % ids.length] === from ? ids[(i + 1) % ids.length]! : ids[(i * 7 + 3) % ids.length]!;
    return { from, to };
  });
  const now = new Date();
  const beginCalls: Call[] = swipes.map(({ from, to }) => ({
    keys: [
      keys.accountRateLimit('like', POOL, from),
      keys.swipes(POOL, from),
      keys.feed(POOL, from),
      keys.passes(POOL, from),
      keys.idempotencyClaim(POOL, from, 'like', ''),
      keys.hidden(POOL, from),
    ],
    args: [to, 'pass', 100_000, 1_000, 1, now.getTime(), '', 0, PASSES_KEPT],
  }));
  const recordCalls: Call[] = swipes.map(({ from, to }) => {
    const shard = pairShard(from, to);
    const candidate = (1_000_000 + from) * SHARDS + shard;
    return {
      keys: [
        keys.pair(POOL, from, to),
        keys.match(POOL, candidate),
        keys.shardOutbox(POOL, shard),
        keys.shardOutboxDue(POOL, shard),
        keys.idempotency(POOL, shard, from, `likes/${to}`, ''),
      ],
      args: [from, to, 'pass', now.getTime(), now.toISOString(), candidate, 0, '[]', interests.get(to)!],
    };
  });
  const appendCalls: Call[] = Array.from({ length: VARIANTS }, (_, i) => {
    const match = matches[i % matches.length]!;
    const shard = matchShard(match.id);
    const sender = i % 2 ? match.b : match.a;
    const draft = {
      match_id: match.id,
      sender_id: sender,
      body: `A message of an ordinary length, number ${i}, about chess and tea.`,
      created_at: now.toISOString(),
      shared_interests_mentioned: [],
    };
    const bounds = DEFAULT_THREAD_BOUNDS;
    return {
      keys: [
        keys.match(POOL, match.id),
        keys.thread(POOL, match.id),
        keys.messageSeq(POOL, shard),
        keys.shardOutbox(POOL, shard),
        keys.shardOutboxDue(POOL, shard),
        keys.idempotency(POOL, shard, sender, `matches/${match.id}/messages`, ''),
        keys.readState(POOL, match.id),
      ],
      args: [
        sender,
        now.getTime(),
        match.id,
        0,
        SHARDS,
        shard,
        createHash('sha256').update(draft.body).digest('base64url'),
        bounds.maxMessages,
        bounds.maxAgeMs,
        now.getTime() - bounds.maxAgeMs,
        ...entryFields(draft),
      ],
    };
  });
  const hgets = swipes.map(({ to }) => [keys.accounts(POOL, indexPartition(to)), String(to)] as const);
  // A feed page's cards: its agents' fields, grouped by index partition (at this size, one).
  const pages = Array.from({ length: VARIANTS }, (_, i) => {
    const members = Array.from({ length: 10 }, (_, j) => ids[(i + j * 5) % ids.length]!);
    return [keys.accounts(POOL, indexPartition(members[0]!)), members.filter((m) => indexPartition(m) === indexPartition(members[0]!)).map(String)] as const;
  });
  const at = <T>(list: readonly T[], i: number) => list[i % list.length]!;
  return [
    { name: 'begin_swipe (EVALSHA)', run: (c, i) => c.evalsha(begin, at(beginCalls, i).keys, at(beginCalls, i).args) },
    { name: 'record_swipe, pass (EVALSHA)', run: (c, i) => c.evalsha(record, at(recordCalls, i).keys, at(recordCalls, i).args) },
    { name: 'append_message (EVALSHA)', run: (c, i) => c.evalsha(append, at(appendCalls, i).keys, at(appendCalls, i).args) },
    { name: 'account (HGET)', run: (c, i) => c.hget(...at(hgets, i)) },
    { name: 'feed cards (HMGET ×10)', run: (c, i) => c.hmget(at(pages, i)[0], [...at(pages, i)[1]]) },
  ];
}

/** `calls` calls of `shape`, `inflight` at a time: µs of this process's CPU per call, and calls/s. */
async function measure(client: Client, shape: Shape, calls: number, inflight: number): Promise<{ cpu: number; rate: number }> {
  let next = 0;
  const worker = async () => {
    while (next < calls) await shape.run(client, next++);
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: inflight }, worker));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / calls, rate: calls / seconds };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runRedisClients(opts: { calls: number; rounds: number; log?: (line: string) => void }): Promise<CellResult[]> {
  const { calls, rounds, log = () => {} } = opts;
  const redis = await startPrivateRedis('redis-clients');
  const admin = createRedis(redis.topology);
  let clients: Client[] = [];
  try {
    await admin.connect();
    log('seeding agents and matches through the service ...');
    const { ids, matches } = await seed(redis.url, 64);
    const interests = new Map<number, string>();
    const probe = new Scripts(admin);
    for (const id of ids) interests.set(id, storedInterests((await storedAccountOf(probe, POOL, id))!));
    const all = shapes(ids, matches, interests);
    clients = await openClients(redis.url);
    for (const name of ['begin_swipe', 'record_swipe', 'append_message']) await admin.script('LOAD', script(name).lua);
    // Messages' outbox records pile up (nothing completes them here): dropped after each append cell.
    const outboxes = [...new Set(matches.flatMap((m) => [keys.shardOutbox(POOL, matchShard(m.id)), keys.shardOutboxDue(POOL, matchShard(m.id))]))];
    log('warming up ...');
    for (const client of clients) for (const shape of all) await measure(client, shape, Math.min(calls, 5_000), 16);
    await admin.del(...outboxes);

    const samples = new Map<string, Array<{ cpu: number; rate: number }>>();
    for (let round = 0; round < rounds; round++) {
      for (const inflight of [16, 1]) {
        for (const shape of all) {
          for (let k = 0; k < clients.length; k++) {
            const client = clients[(k + round) % clients.length]!;
            const result = await measure(client, shape, calls, inflight);
            const cell = `${client.name}|${shape.name}|${inflight}`;
            samples.set(cell, [...(samples.get(cell) ?? []), result]);
            if (shape.name.startsWith('append')) await admin.del(...outboxes);
          }
        }
        log(`round ${round + 1}/${rounds}, ${inflight} in flight: done`);
      }
    }
    const results: CellResult[] = [];
    for (const inflight of [16, 1]) {
      for (const shape of all) {
        const lean = median(samples.get(`hot|${shape.name}|${inflight}`)!.map((s) => s.cpu));
        for (const name of CLIENT_NAMES) {
          const cell = samples.get(`${name}|${shape.name}|${inflight}`)!;
          const cpu = median(cell.map((s) => s.cpu));
          results.push({
            client: name,
            shape: shape.name,
            inflight,
            cpu_us_per_call: round1(cpu),
            calls_per_s: Math.round(median(cell.map((s) => s.rate))),
            vs_lean: round2(cpu / lean),
          });
        }
      }
    }
    return results;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    admin.disconnect();
    await redis.stop();
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** One table per number in flight: µs of CPU per call (× the hot connection's), calls/s. */
function table(results: CellResult[]): string {
  const lines: string[] = [];
  for (const inflight of [16, 1]) {
    lines.push(
      '',
      `${inflight} in flight: µs of client CPU per call (× hot), calls/s`,
      '',
      `| call | ${CLIENT_NAMES.join(' | ')} |`,
      `| --- |${' --- |'.repeat(CLIENT_NAMES.length)}`,
    );
    const rows = results.filter((r) => r.inflight === inflight);
    for (const shape of [...new Set(rows.map((r) => r.shape))]) {
      const cells = CLIENT_NAMES.map((name) => rows.find((r) => r.shape === shape && r.client === name)!);
      lines.push(
        `| ${shape} | ${cells.map((c) => `${c.cpu_us_per_call} (${c.vs_lean.toFixed(2)}×), ${c.calls_per_s.toLocaleString('en-US')}/s`).join(' | ')} |`,
      );
    }
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const { values } = parseArgs({
    options: { calls: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } },
  });
  const results = await runRedisClients({ calls: Number(values.calls), rounds: Number(values.rounds), log: (line) => console.error(line) });
  console.log(values.json ? JSON.stringify(results, null, 2) : table(results));
  process.exit(0);
}
