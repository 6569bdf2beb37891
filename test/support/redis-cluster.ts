/** The tests' Redis Cluster: the same start-up the bench uses (durable writes, `appendfsync always`). */
export { startRedisCluster, type RedisCluster } from '../../src/store/redis-cluster-process.js';
