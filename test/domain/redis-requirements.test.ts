import { describe, expect, it } from 'vitest';
import { unsupportedRedisReason } from '../../src/domain/redis-requirements.js';

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

  it('refuses a cluster node and says what to set instead', () => {
    const reason = unsupportedRedisReason(url, server('7.2.4'), clusterNode);
    expect(reason).toMatch(/^Redis at redis:\/\/10\.0\.0\.5:6379 is a Redis Cluster node; this service does not run on Redis Cluster yet: set REDIS_URL to a standalone Redis/);
    expect(reason).not.toContain('\n');
  });
});
