import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpgradeRateLimit } from '../../src/features/events/sockets/upgrade-rate-limit.js';
import { RateLimiter } from '../../src/platform/limits/rate-limit-repository.js';
import { UpgradeLimits } from '../../src/platform/limits/upgrade-limits.js';
import { createLogger } from '../../src/platform/logger.js';
import { startStore } from '../support/stack.js';

let store: Awaited<ReturnType<typeof startStore>>;

beforeAll(async () => {
  store = await startStore();
});
afterAll(() => store?.cleanup());

describe('WebSocket upgrade rate limit', () => {
  it('lets an account past its limit by at most one upgrade per process: while a count is on the way, the next upgrade waits for it', async () => {
    const limits = new UpgradeLimits(new RateLimiter(store.scripts), { limit: 2, windowSeconds: 60 });
    const limit = new UpgradeRateLimit(limits, createLogger('silent'));
    const account = { pool: 'agent' as const, userId: 7 };
    expect(limit.check(account)).toBeUndefined();
    const second = limit.check(account);
    expect(second).toBeInstanceOf(Promise);
    await second;
    await expect(limit.check(account)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
