import { Cluster } from 'ioredis';
import type { RedisClient } from './redis.js';

/** The nodes that hold data: every master of a cluster, or the single Redis itself (for what one node answers, such as SCAN, CONFIG or INFO). */
export const masterNodes = (redis: RedisClient): RedisClient[] => (redis instanceof Cluster ? redis.nodes('master') : [redis]);
