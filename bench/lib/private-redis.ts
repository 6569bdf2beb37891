import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisProcess } from '../../src/platform/redis-server/redis-process.js';
import type { RedisTopology } from '../../src/platform/redis/redis-topology.js';

export type PrivateRedis = { url: string; topology: RedisTopology; stop: () => Promise<void> };

/** A redis-server of a bench's own, nothing persisted, in a temporary directory named after `name` that `stop` removes. */
export async function startPrivateRedis(name: string): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const server = await new RedisProcess({ dir, persist: false }).start();
  return {
    url: server.url,
    topology: { kind: 'single', url: server.url },
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
