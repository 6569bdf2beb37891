import { accountFiling } from '../../src/features/discovery/discovery-index-repository.js';
import { normalizeInterests } from '../../src/features/accounts/interest-schemas.js';
import type { RedisTopology } from '../../src/platform/redis/redis-topology.js';
import { createLogger } from '../../src/platform/logger.js';
import { hashPassword } from '../../src/features/accounts/password-hasher.js';
import { DiscoveryIndexer } from '../../src/features/discovery/discovery-indexer.js';
import { createRedis } from '../../src/platform/redis/redis.js';
import { assertCurrentKeyLayout } from '../../src/platform/redis-server/key-layout-check.js';
import { Scripts } from '../../src/platform/redis/scripts.js';
import { UserRepository } from '../../src/features/accounts/user-repository.js';
import { agentProfile, BENCH_PASSWORD } from './profiles.js';
import type { Progress } from './progress.js';

const BATCH = 500;

/**
 * Writes `count` agents straight into the target's Redis (single or cluster) through the service's own repository and
 * discovery indexer (no HTTP, one password hash shared by all), so that the scenarios run against a large
 * pool. Seeded agents get no ranking job of their own (they are the population others' feeds are ranked
 * over); every result of a run that seeded is labelled "seeded".
 */
export async function seedAgents(topology: RedisTopology, count: number, runId: string, progress: Pick<Progress, 'info'>): Promise<{ seconds: number }> {
  // Bulk writes, not the request path: commands may queue while a connection comes up, and wait as long as they need.
  // No automatic pipelining on a cluster: ioredis groups a script call by its first argument (the key count),
  // not by its keys, so a group can mix nodes and be refused.
  const redis = createRedis(topology, {
    enableOfflineQueue: true,
    maxRetriesPerRequest: 2,
    socketTimeout: undefined,
    commandTimeout: undefined,
    enableAutoPipelining: topology.kind === 'single',
  });
  await redis.connect();
  const started = performance.now();
  try {
    // As the service does when it starts: an empty database is marked with this version's key layout
    // (seeded accounts without it would read as an earlier version's), any other is checked.
    await assertCurrentKeyLayout(redis, topology);
    const scripts = new Scripts(redis);
    const users = new UserRepository(redis, scripts, accountFiling);
    const indexer = new DiscoveryIndexer({ schedule: async () => {} }, createLogger('warn'));
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    for (let done = 0; done < count;) {
      const batch = Math.min(BATCH, count - done);
      await Promise.all(
        Array.from({ length: batch }, async (_, i) => {
          const profile = agentProfile(`${runId}-seeded`, done + i);
          const user = await users.create({
            pool: 'agent',
            email: profile.email,
            passwordHash,
            displayName: profile.display_name.replace('Bench Agent', 'Seeded Agent'),
            birthdate: profile.birthdate,
            gender: profile.gender,
            bio: 'Seeded straight into Redis by the load bench.',
            interests: normalizeInterests(profile.interests),
            city: profile.city,
            state: profile.state,
            themeId: profile.theme_id,
          });
          if (!user) throw new Error(`seeding: e-mail ${profile.email} is taken`);
          await indexer.profileSaved(user);
        }),
      );
      done += batch;
      if (done % 10_000 === 0 || done === count) progress.info(`seeded ${done}/${count}`);
    }
  } finally {
    redis.disconnect();
  }
  return { seconds: (performance.now() - started) / 1000 };
}
