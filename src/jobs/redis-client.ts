import type { Cluster, Redis } from 'ioredis';

/** A client of either topology (store/redis.ts `RedisClient`; the jobs layer does not import the store's connections). */
export type RedisClient = Redis | Cluster;
