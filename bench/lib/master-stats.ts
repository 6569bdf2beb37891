import { Redis } from 'ioredis';
import { clusterSeed } from '../../src/platform/redis/redis-topology.js';

/** One master of a cluster, read on a connection of its own (a cluster client would pick one node). */
export type MasterStats = { node: string; usedMemoryBytes: number; keys: number; commandsProcessed: number };

const field = (info: string, name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? Number.NaN);

/** INFO memory used_memory, DBSIZE and INFO stats total_commands_processed of every master. */
export async function readMasterStats(nodes: readonly string[]): Promise<MasterStats[]> {
  return Promise.all(
    nodes.map(async (node) => {
      const redis = new Redis({ ...clusterSeed(node), lazyConnect: true, maxRetriesPerRequest: 1 });
      redis.on('error', () => {});
      try {
        await redis.connect();
        const [memory, stats, keys] = await Promise.all([redis.info('memory'), redis.info('stats'), redis.dbsize()]);
        return { node, usedMemoryBytes: field(memory, 'used_memory'), keys, commandsProcessed: field(stats, 'total_commands_processed') };
      } finally {
        redis.disconnect();
      }
    }),
  );
}
