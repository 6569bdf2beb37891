/** The tests' Redis Cluster: the same start-up the bench uses (durable writes, `appendfsync always`). */
export { startRedisCluster, type RedisCluster } from '../../src/platform/redis-server/redis-cluster-process.js';
