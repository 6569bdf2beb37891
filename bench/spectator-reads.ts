/**
 * What the public spectator JSON reads cost Redis, with and without shared answers. Seeds agent matches
 * (each with a few messages) through the service's own code into a private Redis, then loads
 * `GET /api/v1/spectator/matches?limit=100` and `GET /api/v1/spectator/stats` from `--clients` keep-alive
 * clients for `--seconds` each, against two servers on that Redis: one sharing each answer for 1 s
 * (SPECTATOR_CACHE_MS=1000, the default) and one sharing none (0). Prints requests/s and Redis commands per
 * request: INFO commandstats calls summed over the run (commands inside scripts included, the per-address
 * limit's script too, and whatever the servers do in the background meanwhile), divided by the requests.
 * The per-address limit is raised out of the way.
 *
 *   npx tsx bench/spectator-reads.ts [--matches 200] [--clients 16] [--seconds 5]
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { Application } from '../src/app.js';
import { JsonClient } from '../src/clients/json-client.js';
import { startPrivateRedis } from './lib/private-redis.js';
import { startBenchApp } from './lib/bench-app.js';
import type { RedisTopology } from '../src/platform/redis/redis-topology.js';

const READS = ['/api/v1/spectator/matches?limit=100', '/api/v1/spectator/stats'];

async function commandCalls(redis: Redis): Promise<number> {
  const text = await redis.info('commandstats');
  return [...text.matchAll(/calls=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

const startServer = (redis: RedisTopology, cacheMs: number) =>
  startBenchApp(redis, { SPECTATOR_RATE_LIMIT: 100_000, SPECTATOR_RATE_WINDOW_SECONDS: 1, SPECTATOR_CACHE_MS: cacheMs });

/** Agent matches made through the service's own code (no HTTP, no password hashing), each with `messages` messages. */
async function seedMatches(app: Application, matches: number, messages: number) {
  for (let n = 0; n < matches; n++) {
    const [a, b] = await Promise.all(
      [0, 1].map(async (side) => {
        const user = await app.users.create({
          pool: 'agent',
          email: `spectated-${n}-${side}@bench.example`,
          passwordHash: 'seeded',
          displayName: `Spectated ${n}-${side}`,
          birthdate: '1990-01-01',
          gender: 'other',
          bio: 'Seeded by bench/spectator-reads.ts.',
          interests: ['kites', 'jazz', `topic-${n % 50}`],
          city: 'Lisbon',
          state: '',
          themeId: 1 + (n % 6),
        });
        return { userId: user!.id, pool: 'agent' as const };
      }),
    );
    await app.swipeService.swipe(a!, b!.userId, 'like');
    const liked = await app.swipeService.swipe(b!, a!.userId, 'like');
    for (let m = 0; m < messages; m++) await app.messageService.send(m % 2 ? b! : a!, liked.match!.id, `Message ${m} about kites and jazz.`);
  }
}

/** `clients` loops reading `path` back to back for `seconds`; returns the requests answered 200. */
async function load(baseUrl: string, path: string, clients: number, seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let answered = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new JsonClient(baseUrl, { maxSockets: 1 });
      try {
        while (Date.now() < until) {
          const res = await client.get(path);
          if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
          answered++;
        }
      } finally {
        client.close();
      }
    }),
  );
  return answered;
}

async function main() {
  const { values } = parseArgs({
    options: { matches: { type: 'string', default: '200' }, clients: { type: 'string', default: '16' }, seconds: { type: 'string', default: '5' } },
  });
  const [matches, clients, seconds] = [Number(values.matches), Number(values.clients), Number(values.seconds)];
  const redis = await startPrivateRedis('spectator-reads');
  const probe = new Redis(redis.url);
  const servers: Application[] = [];
  try {
    const [shared, unshared] = [await startServer(redis.topology, 1_000), await startServer(redis.topology, 0)];
    servers.push(shared, unshared);
    console.log(`seeding ${matches} agent matches with 4 messages each ...`);
    await seedMatches(shared, matches, 4);
    console.log(`| read | SPECTATOR_CACHE_MS | requests/s | Redis commands per request |`);
    console.log(`| --- | --- | --- | --- |`);
    for (const path of READS) {
      for (const [server, cacheMs] of [
        [unshared, 0],
        [shared, 1_000],
      ] as const) {
        const before = await commandCalls(probe);
        const answered = await load(`http://127.0.0.1:${server.port}`, path, clients, seconds);
        const commands = (await commandCalls(probe)) - before;
        console.log(`| \`${path}\` | ${cacheMs} | ${Math.round(answered / seconds)} | ${(commands / answered).toFixed(2)} |`);
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    probe.disconnect();
    await redis.stop();
  }
}

await main();
