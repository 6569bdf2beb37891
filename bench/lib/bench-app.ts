import { Application } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/platform/logger.js';
import type { RedisTopology } from '../../src/platform/redis/redis-topology.js';

type Settings = Record<string, string | number | boolean>;

/**
 * The service in this process on `redis`, started: on a free port of 127.0.0.1, logging warnings only, with
 * no embedded ranking worker (a bench that ranks runs its own); `settings` go over those.
 */
export function startBenchApp(redis: RedisTopology, settings: Settings = {}, logger: Logger = createLogger('warn')): Promise<Application> {
  const config = loadConfig({
    PORT: 0,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    EMBEDDED_WORKER: false,
    TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret',
    ...settings,
  });
  return new Application({ config, redis, logger }).start();
}
