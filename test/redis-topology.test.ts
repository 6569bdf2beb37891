import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/platform/redis-server/free-port.js';
import { killChildren, spawnTsx } from './support/child-process.js';
import { startRedisCluster, type RedisCluster } from './support/redis-cluster.js';
import { startRedis } from './support/stack.js';

afterEach(killChildren);

const run = async (env: Record<string, string>, command = 'serve') =>
  spawnTsx(['src/main.ts', command], { PORT: String(await freePort()), HOST: '127.0.0.1', TOKEN_SECRET: 'test-secret-test-secret-test-secret!', ...env });

/** Its exit code, or 'started' when it serves (or its worker runs) instead of exiting. */
const outcome = (proc: ReturnType<typeof spawnTsx>) => Promise.race([proc.exited, proc.waitFor(/listening on|ranking worker started/).then(() => 'started')]);

/** What the process printed for a person: every line but pino's JSON log lines. */
const plainLines = (output: string) => output.split('\n').filter((line) => line && !line.startsWith('{'));

describe('start-up takes a Redis Cluster only as REDIS_CLUSTER_NODES', () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster();
  });
  afterAll(() => cluster?.cleanup());

  for (const command of ['serve', 'worker']) {
    it(`${command}: REDIS_URL at a Redis Cluster node is refused with one line naming REDIS_CLUSTER_NODES, and exit 1`, async () => {
      const proc = await run({ REDIS_URL: cluster.url }, command);
      expect(await outcome(proc)).toBe(1);
      expect(plainLines(proc.output())).toEqual([
        `Redis at ${cluster.url} is a Redis Cluster node, given as REDIS_URL: unset REDIS_URL and set REDIS_CLUSTER_NODES to the cluster's seed nodes (host:port,host:port).`,
      ]);
    });

    it(`${command}: REDIS_CLUSTER_NODES runs it on the cluster`, async () => {
      const proc = await run({ REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes.join(',') }, command);
      expect(await outcome(proc)).toBe('started');
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    });
  }

  it('REDIS_URL and REDIS_CLUSTER_NODES together are a config error', async () => {
    const proc = await run({ REDIS_URL: cluster.url, REDIS_CLUSTER_NODES: cluster.nodes.join(',') });
    expect(await outcome(proc)).toBe(1);
    expect(plainLines(proc.output())).toEqual([
      `config: REDIS_CLUSTER_NODES=${JSON.stringify(cluster.nodes.join(','))} cannot be set together with REDIS_URL: set one of them`,
    ]);
  });

  it('a REDIS_CLUSTER_NODES that is not a host:port list is a config error', async () => {
    const proc = await run({ REDIS_URL: '', REDIS_CLUSTER_NODES: 'redis://127.0.0.1:7000' });
    expect(await outcome(proc)).toBe(1);
    expect(plainLines(proc.output())).toEqual([
      'config: REDIS_CLUSTER_NODES="redis://127.0.0.1:7000" must be a comma-separated list of host:port seed nodes, e.g. 10.0.0.1:7000,10.0.0.2:7000',
    ]);
  });
});

describe('start-up accepts a standalone Redis 7.0+', () => {
  it('serves against the local redis-server (its version passes the check)', async () => {
    const redis = await startRedis();
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-match-topology-'));
    try {
      const proc = await run({ REDIS_URL: redis.url, DATA_DIR: dataDir });
      await proc.waitFor(/listening on/);
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    } finally {
      await redis.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
