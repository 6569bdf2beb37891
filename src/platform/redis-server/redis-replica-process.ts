import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { REDIS_SERVER_SETTINGS } from './redis-settings.js';
import { startRedisWatchdog } from './redis-watchdog.js';

export type RedisReplica = {
  port: number;
  pid: number;
  /** SIGKILLs it and removes its directory. */
  stop: () => Promise<void>;
};

/**
 * A replica of the single Redis on `masterPort` (a throw-away directory, no persistence of its own), resolved
 * once its link to the master is up and the first sync is done: the tests' and the bench's replica. A
 * watchdog stops it if this process dies first.
 */
export async function startRedisReplica(masterPort: number, timeoutMs = 15_000): Promise<RedisReplica> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-match-replica-'));
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      ...REDIS_SERVER_SETTINGS,
      '--replicaof',
      '127.0.0.1',
      String(masterPort),
    ],
    { stdio: 'ignore' },
  );
  const watchdog = startRedisWatchdog(child.pid!);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => watchdog.kill('SIGKILL'));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  client.on('error', () => {});
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const report = await client.info('replication').catch(() => '');
      if (/master_link_status:up/.test(report) && !/master_sync_in_progress:1/.test(report)) break;
      if (Date.now() > deadline) throw new Error(`the replica on ${port} of ${masterPort} is not in sync after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.disconnect();
  }
  return { port, pid: child.pid!, stop };
}
