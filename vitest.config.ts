import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs the suite twice: against a single redis-server, then (`TEST_REDIS_TOPOLOGY=cluster`,
 * `npm run test:cluster`) against a Redis Cluster of each file's own, three masters with a replica each (test/support/stack.ts).
 */
const cluster = process.env.TEST_REDIS_TOPOLOGY === 'cluster';

/** What only a single node can show: stopping, pausing or filling it, MONITOR, a topology refused at start-up. */
const SINGLE_ONLY = [
  'test/main.test.ts',
  'test/build/**',
  'test/embedded-redis-crash.test.ts',
  'test/redis-topology.test.ts',
  'test/http/aborted-requests.test.ts',
  'test/http/long-unmatch.test.ts',
  'test/http/match-lookups.test.ts',
  'test/http/pool-sequences.test.ts',
  'test/http/recovery.test.ts',
  'test/http/redis-full.test.ts',
  'test/http/redis-stall.test.ts',
  'test/http/replica-acknowledgement.test.ts',
  'test/realtime/crash-events.test.ts',
  'test/realtime/relay-recovery.test.ts',
  'test/services/ranking-steps.test.ts',
  'test/store/feed-store.test.ts',
  'test/store/script-connection.test.ts',
  'test/store/script-flags.test.ts',
  'test/store/script-slots.test.ts',
];

/** Tests that use no Redis: the cluster run has nothing to add to them. */
const NO_REDIS = [
  'test/domain/**',
  'test/docs/**',
  'test/client/json-client.test.ts',
  'test/client/typescript-client-types.test.ts',
  'test/client/typescript-client-readme.test.ts',
  'test/support/loopback.test.ts',
  'test/bench/**',
  'test/layers/**',
  'test/http/body-reader.test.ts',
  'test/http/bearer.test.ts',
  'test/store/resp.test.ts',
  'test/store/cluster-slot-map.test.ts',
];

/** What only a cluster can show (a master restarted under writes, a replica promoted in place of a master). */
const CLUSTER_ONLY = ['test/cluster/**'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(cluster ? [...SINGLE_ONLY, ...NO_REDIS] : CLUSTER_ONLY)],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a condition; vitest's 1 s default is a wall-clock bound a busy machine can miss.
    // The same generous bound as `eventually` (test/support/eventually.ts): it is not what a test asserts.
    expect: { poll: { timeout: 10_000 } },
    maxWorkers: 2,
    reporters: ['default'],
  },
});
