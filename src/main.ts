// First, before anything else is loaded: an older Node.js stops here with one line saying what to do.
import './node-version.js';
import { resolve } from 'node:path';
import { Application } from './app.js';
import { startWorkers } from './worker.js';
import { migrateKeyLayout } from './layout-migration.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, type Logger } from './platform/logger.js';
import { runDemo } from './clients/demo/run-demo.js';
import { DataDirInUseError, RedisNotFoundError, RedisProcess } from './platform/redis-server/redis-process.js';
import { isConnectionError } from './platform/redis/redis-errors.js';
import { describeRedis, UnsupportedRedisError } from './platform/redis-server/redis-requirements-check.js';
import type { RedisTopology } from './platform/redis/redis-topology.js';

const HOW_TO_GET_REDIS =
  'No REDIS_URL was given and redis-server is not on PATH: install Redis (apt-get install redis-server, or brew install redis) or set REDIS_URL=redis://host:6379.';

/** The Redis given by the configuration (REDIS_CLUSTER_NODES or REDIS_URL), or undefined when neither is set. */
function configuredTopology(config: Config): RedisTopology | undefined {
  if (config.REDIS_CLUSTER_NODES) return { kind: 'cluster', nodes: config.REDIS_CLUSTER_NODES };
  if (config.REDIS_URL) return { kind: 'single', url: config.REDIS_URL };
  return undefined;
}

/** The Redis to use: a Redis Cluster, REDIS_URL, or a private redis-server child with its data under DATA_DIR. */
async function resolveRedis(config: Config, logger: Logger): Promise<{ topology: RedisTopology; embedded?: RedisProcess }> {
  const configured = configuredTopology(config);
  if (configured) return { topology: configured };
  const embedded = new RedisProcess({ dir: resolve(config.DATA_DIR, 'redis'), persist: true });
  try {
    await embedded.start();
  } catch (error) {
    if (error instanceof RedisNotFoundError) {
      console.error(HOW_TO_GET_REDIS);
      process.exit(1);
    }
    if (error instanceof DataDirInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  logger.info({ redis: embedded.url }, `started embedded redis-server at ${embedded.url} (data in ${resolve(config.DATA_DIR, 'redis')})`);
  return { topology: { kind: 'single', url: embedded.url }, embedded };
}

/** The one line `serve` prints when start-up fails. */
function startFailureLine(error: unknown, topology: RedisTopology, embedded: boolean): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof UnsupportedRedisError) return reason;
  if (embedded || !isConnectionError(error)) return `could not start: ${reason}`;
  if (topology.kind === 'cluster') return `cannot reach Redis at ${describeRedis(topology)} (${reason}): start that cluster or fix REDIS_CLUSTER_NODES.`;
  return `cannot reach Redis at ${topology.url} (${reason}): start that Redis, fix REDIS_URL, or unset REDIS_URL to use an embedded redis-server.`;
}

/**
 * On the first SIGTERM or SIGINT: `stop`, then exit 0. Taken before start-up begins, because a process with
 * no listener dies at once by the signal: a signal that comes while it starts waits for the start instead.
 */
function stopOnSignal(logger: Logger, stopping: string, stop: () => Promise<void>) {
  const shutdown = async (signal: string) => {
    logger.info(`${signal}: ${stopping}`);
    await stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

async function serve(config: Config) {
  const logger = createLogger(config.LOG_LEVEL);
  const starting = startService(config, logger);
  stopOnSignal(logger, 'stopping', async () => {
    const { app, embedded } = await starting;
    await app.stop();
    await embedded?.stop();
  });
  return (await starting).app;
}

/** The server on its Redis; a start that fails prints one line and exits 1. */
async function startService(config: Config, logger: Logger) {
  const { topology, embedded } = await resolveRedis(config, logger);
  const app = new Application({ config, redis: topology, logger });
  try {
    await app.start();
  } catch (error) {
    console.error(startFailureLine(error, topology, embedded !== undefined));
    await app.stop().catch(() => {});
    await embedded?.stop();
    process.exit(1);
  }
  return { app, embedded };
}

/** The service (as `serve` starts it) plus simulated agents using its public API. */
async function demo(config: Config) {
  const app = await serve(config);
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  await runDemo(`http://${host.includes(':') ? `[${host}]` : host}:${app.port}`, app.logger);
}

/** `npm run worker`: a ranking worker only, against the server's Redis, until SIGTERM or SIGINT. */
async function worker(config: Config) {
  const topology = configuredTopology(config);
  if (!topology) {
    console.error('npm run worker needs REDIS_URL or REDIS_CLUSTER_NODES, the Redis the server uses (e.g. REDIS_URL=redis://127.0.0.1:6379 npm run worker).');
    process.exit(1);
  }
  const logger = createLogger(config.LOG_LEVEL);
  const starting = startWorkers(config, topology, logger).catch((error: unknown) => {
    if (error instanceof UnsupportedRedisError) console.error(error.message);
    else logger.fatal({ err: error }, 'could not start the ranking worker');
    process.exit(1);
  });
  stopOnSignal(logger, 'stopping the ranking worker', async () => (await starting).stop());
  await starting;
  logger.info('ranking worker started');
}

/** `npm run migrate`: moves the stored data to this version's key layout, with the service stopped. */
async function migrate(config: Config) {
  const logger = createLogger(config.LOG_LEVEL);
  const { topology, embedded } = await resolveRedis(config, logger);
  try {
    const done = await migrateKeyLayout(topology, logger);
    if (done.outcome === 'moved') console.log(`moved ${done.threads} threads (${done.messages} messages) to key layout 3`);
    else
      console.log(
        done.outcome === 'current' ? 'the data is in key layout 3 already: nothing to move' : 'no data of this service in this Redis: nothing to move',
      );
  } catch (error) {
    console.error(startFailureLine(error, topology, embedded !== undefined));
    process.exitCode = 1;
  } finally {
    await embedded?.stop();
  }
}

async function main() {
  const command = process.argv[2] ?? 'serve';
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) console.error(problem);
      process.exit(1);
    }
    throw error;
  }
  switch (command) {
    case 'serve':
      return serve(config);
    case 'worker':
      return worker(config);
    case 'demo':
      return demo(config);
    case 'migrate':
      return migrate(config);
    default:
      console.error(`unknown command "${command}"; use one of: serve, worker, demo, migrate`);
      process.exit(1);
  }
}

void main();
