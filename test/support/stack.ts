import { mkdtempSync, rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application } from '../../src/app.js';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { RedisProcess } from '../../src/store/redis-process.js';
import { Scripts } from '../../src/store/scripts.js';
import { JsonClient } from '../../src/client/json-client.js';

export type TestApp = { app: Application; api: JsonClient; baseUrl: string; stop: () => Promise<void> };

/** A real redis-server of this test file's own, on a free port, in a throw-away directory. */
export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisProcess & { cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-match-redis-'));
  const redis = await new RedisProcess({ dir, persist: options.persist ?? false }).start();
  return Object.assign(redis, {
    cleanup: async () => {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/**
 * Per-address limits raised out of the way: every test client connects from 127.0.0.1. The tests of those
 * limits set them back (see `REAL_ADDRESS_LIMITS`) and connect from addresses of their own.
 */
const TEST_ADDRESS_LIMITS = { REGISTER_RATE_LIMIT: 1_000_000, LOGIN_RATE_LIMIT: 1_000_000 };
export const REAL_ADDRESS_LIMITS = { REGISTER_RATE_LIMIT: 5, LOGIN_RATE_LIMIT: 10 };

/** A redis-server of this file's own with a plain client and the Lua scripts on it: for testing store and service classes without a server. */
export async function startStore() {
  const server = await startRedis();
  const redis = new Redis(server.url);
  return {
    redis,
    scripts: new Scripts(redis),
    cleanup: async () => {
      redis.disconnect();
      await server.cleanup();
    },
  };
}

/** The real server, in this process, on a free port, against `redisUrl`. */
export async function startApp(redisUrl: string, overrides: ConfigInput = {}): Promise<TestApp> {
  const config = loadConfig({
    PORT: 0,
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    TOKEN_SECRET: 'test-secret-test-secret-test-secret!',
    ...TEST_ADDRESS_LIMITS,
    ...overrides,
  });
  const app = await new Application({ config, redisUrl, logger: createLogger(config.LOG_LEVEL) }).start();
  const baseUrl = `http://127.0.0.1:${app.port}`;
  const api = new JsonClient(baseUrl);
  return {
    app,
    api,
    baseUrl,
    stop: async () => {
      api.close();
      await app.stop();
    },
  };
}

/** One Redis and two servers on it: two server processes' worth of everything (connections, relay, uWS app). */
export async function startTwoApps(overrides: ConfigInput = {}) {
  const redis = await startRedis();
  const [one, two] = await Promise.all([startApp(redis.url, overrides), startApp(redis.url, overrides)]);
  return {
    redis,
    one,
    two,
    stop: async () => {
      await Promise.all([one.stop(), two.stop()]);
      await redis.cleanup();
    },
  };
}

/** Redis plus one server: what most integration test files need. */
export async function startStack(overrides: ConfigInput = {}) {
  const redis = await startRedis();
  const server = await startApp(redis.url, overrides);
  return {
    ...server,
    redis,
    stop: async () => {
      await server.stop();
      await redis.cleanup();
    },
  };
}
