import type { Logger } from './platform/logger.js';
import { createRedis } from './platform/redis/redis.js';
import type { RedisTopology } from './platform/redis/redis-topology.js';
import { Scripts } from './platform/redis/scripts.js';
import { keys } from './platform/redis/keys.js';
import { KEY_LAYOUT, MOVABLE_KEY_LAYOUT, recordedKeyLayout } from './platform/redis-server/key-layout-check.js';
import { assertSupportedRedis, describeRedis, UnsupportedRedisError } from './platform/redis-server/redis-requirements-check.js';
import { ThreadLayoutRepository } from './repositories.js';

/** What `migrate` did: moved the data, found it moved already, or found none of the service's data. */
export type LayoutMigration = { outcome: 'moved'; threads: number; messages: number } | { outcome: 'current' } | { outcome: 'empty' };

/**
 * `migrate`: moves the data of key layout 2 to layout 3 (each thread from a sorted set to a stream), in
 * bounded steps, then records layout 3. Run it with every process of the service stopped (the service
 * refuses layout 2 until then); a run that stops part way is taken up by the next.
 */
export async function migrateKeyLayout(topology: RedisTopology, logger: Logger): Promise<LayoutMigration> {
  // Steps are bounded but many: a generous command timeout, as for an operator's tool.
  const redis = createRedis(topology, {}, 30_000);
  try {
    await redis.connect();
    await assertSupportedRedis(redis, topology);
    const layout = await recordedKeyLayout(redis);
    if (layout === KEY_LAYOUT) return { outcome: 'current' };
    if (layout === null) return { outcome: 'empty' };
    if (layout !== MOVABLE_KEY_LAYOUT) {
      throw new UnsupportedRedisError(`Redis at ${describeRedis(topology)} holds key layout ${layout}; this version moves layout ${MOVABLE_KEY_LAYOUT} only.`);
    }
    const threads = new ThreadLayoutRepository(redis, new Scripts(redis));
    let done = 0;
    const moved = await threads.moveAll(() => {
      done += 1;
      if (done % 10_000 === 0) logger.info(`${done} threads moved`);
    });
    await redis.set(keys.keyLayout(), KEY_LAYOUT);
    return { outcome: 'moved', ...moved };
  } finally {
    redis.disconnect();
  }
}
