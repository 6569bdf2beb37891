import { describe, expect, it } from 'vitest';
import { startBenchApp } from '../../bench/lib/bench-app.js';
import { startPrivateRedis } from '../../bench/lib/private-redis.js';
import { seedAgents } from '../../bench/lib/seed.js';
import { keys } from '../../src/platform/redis/keys.js';

describe('seeding agents straight into Redis', () => {
  it('works on an empty database before the service first starts there, and the service then serves the seeded pool', async () => {
    const redis = await startPrivateRedis('bench-seed');
    try {
      await seedAgents(redis.topology, 5, 'seedtest', { info: () => {} });
      const app = await startBenchApp(redis.topology);
      try {
        const ready = await fetch(`http://127.0.0.1:${app.port}/readyz`);
        expect(ready.status).toBe(200);
        expect(await app.redis.get(keys.userSeq('agent'))).toBe('5');
      } finally {
        await app.stop();
      }
    } finally {
      await redis.stop();
    }
  }, 60_000);
});
