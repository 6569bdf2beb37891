import { describe, expect, it } from 'vitest';
import { unsupportedClusterReason, unsupportedRedisReason } from '../../src/platform/redis-server/redis-requirements.js';

const server = (version: string) => `# Server\r\nredis_version:${version}\r\nredis_mode:standalone\r\n`;
const standalone = '# Cluster\r\ncluster_enabled:0\r\n';
const clusterNode = '# Cluster\r\ncluster_enabled:1\r\n';
const url = 'redis://10.0.0.5:6379';

describe('the Redis a process can run on', () => {
  it('refuses a Redis older than 7.0 with one line naming its version', () => {
    for (const old of ['6.2.14', '6.0.20', '5.0.7']) {
      expect(unsupportedRedisReason(url, server(old), standalone)).toBe(
        `Redis at ${url} is ${old}; this service needs Redis 7.0 or later (its scripts use script flags).`,
      );
    }
  });

  it('accepts Redis 7.0 and later', () => {
    for (const version of ['7.0.0', '7.0.15', '7.2.4', '8.0.1', '10.1.0']) {
      expect(unsupportedRedisReason(url, server(version), standalone)).toBeUndefined();
    }
  });

  it('refuses a cluster node given as REDIS_URL and says to set REDIS_CLUSTER_NODES instead', () => {
    const reason = unsupportedRedisReason(url, server('7.2.4'), clusterNode);
    expect(reason).toBe(
      "Redis at redis://10.0.0.5:6379 is a Redis Cluster node, given as REDIS_URL: unset REDIS_URL and set REDIS_CLUSTER_NODES to the cluster's seed nodes (host:port,host:port).",
    );
  });

  it('refuses a cluster with an old master or a cluster_state that is not ok, with one line', () => {
    const master = (address: string, version: string, state: string) => ({ address, infoServer: server(version), clusterInfo: `cluster_state:${state}\r\n` });
    const nodes = '10.0.0.1:7000 (Redis Cluster)';
    expect(unsupportedClusterReason(nodes, [master('10.0.0.1:7000', '7.2.4', 'ok'), master('10.0.0.2:7000', '7.2.4', 'ok')])).toBeUndefined();
    expect(unsupportedClusterReason(nodes, [master('10.0.0.1:7000', '7.2.4', 'ok'), master('10.0.0.2:7000', '6.2.14', 'ok')])).toBe(
      'Redis at 10.0.0.2:7000 is 6.2.14; this service needs Redis 7.0 or later (its scripts use script flags).',
    );
    expect(unsupportedClusterReason(nodes, [master('10.0.0.1:7000', '7.2.4', 'fail')])).toBe(
      `Redis at ${nodes} is not ok (cluster_state:fail on 10.0.0.1:7000): every slot must be served before this service starts.`,
    );
    expect(unsupportedClusterReason(nodes, [])).toMatch(/^Redis at 10\.0\.0\.1:7000 \(Redis Cluster\) has no master serving slots/);
  });
});
