import { Cluster } from 'ioredis';
import { unsupportedClusterReason, unsupportedRedisReason } from './redis-requirements.js';
import { describeTopology, type RedisTopology } from '../redis/redis-topology.js';
import type { RedisClient } from '../redis/redis.js';

/** The Redis a process was pointed at cannot serve it (too old, a cluster node given as REDIS_URL, a cluster not ok); the message is one line. */
export class UnsupportedRedisError extends Error {}

/**
 * Throws UnsupportedRedisError when this Redis cannot serve: a standalone one is read once (`INFO server`,
 * `INFO cluster`); on a cluster, every master is (`INFO server`, `CLUSTER INFO`).
 */
export async function assertSupportedRedis(redis: RedisClient, topology: RedisTopology): Promise<void> {
  const where = describeRedis(topology);
  let reason: string | undefined;
  if (redis instanceof Cluster) {
    const masters = await Promise.all(
      redis.nodes('master').map(async (node) => {
        const [infoServer, clusterInfo] = await Promise.all([node.info('server'), node.cluster('INFO')]);
        return { address: `${node.options.host}:${node.options.port}`, infoServer, clusterInfo };
      }),
    );
    reason = unsupportedClusterReason(where, masters);
  } else {
    const [infoServer, infoCluster] = await Promise.all([redis.info('server'), redis.info('cluster')]);
    reason = unsupportedRedisReason(where, infoServer, infoCluster);
  }
  if (reason) throw new UnsupportedRedisError(reason);
}

/** The topology as start-up lines name it, without a password. */
export const describeRedis = (topology: RedisTopology) => describeTopology(topology, withoutPassword);

export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
