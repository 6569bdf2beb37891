import type { Redis } from 'ioredis';
import { unsupportedRedisReason } from '../domain/redis-requirements.js';

/** The Redis a process was pointed at cannot serve it (too old, or a cluster node); the message is one line. */
export class UnsupportedRedisError extends Error {}

/** Reads `INFO server` and `INFO cluster` once and throws UnsupportedRedisError when this Redis cannot serve. */
export async function assertSupportedRedis(redis: Redis, url: string): Promise<void> {
  const [infoServer, infoCluster] = await Promise.all([redis.info('server'), redis.info('cluster')]);
  const reason = unsupportedRedisReason(withoutPassword(url), infoServer, infoCluster);
  if (reason) throw new UnsupportedRedisError(reason);
}

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
