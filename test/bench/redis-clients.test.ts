import { describe, expect, it } from 'vitest';
import { runRedisClients } from '../../bench/redis-clients.js';

describe('Redis clients bench', () => {
  it("sends each shape's calls as the service does, through every client, and each of them answers", async () => {
    const results = await runRedisClients({ calls: 200, rounds: 1 });
    const shapes = new Set(results.map((r) => r.shape));
    expect([...shapes]).toEqual(expect.arrayContaining(['begin_swipe (EVALSHA)', 'record_swipe, pass (EVALSHA)', 'append_message (EVALSHA)']));
    for (const result of results) {
      expect(result.calls_per_s, `${result.client} ${result.shape}`).toBeGreaterThan(0);
      expect(result.cpu_us_per_call, `${result.client} ${result.shape}`).toBeGreaterThan(0);
    }
  }, 120_000);
});
