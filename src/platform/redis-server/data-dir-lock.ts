import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning, processIdentity, waitForExit } from './process-identity.js';

/** What the lock file records: the process that owns the directory, and its redis-server once started. */
type Holder = { ownerPid?: number; owner?: string; redisPid?: number; redis?: string; port?: number };

export const LOCK_FILE = 'owner.lock';
/** How long a stale redis-server gets to finish its graceful shutdown (AOF flushed) before we give up. */
const STALE_SHUTDOWN_MS = 30_000;

export class DataDirInUseError extends Error {}

/**
 * One data directory, at most one redis-server, ever. The lock file names the owning process and its
 * redis-server (each by pid and start time, so a reused pid is not mistaken for them). A live owner
 * means the directory is in use: refuse. A dead owner whose redis-server still runs is stale: that
 * server is asked to shut down (SIGTERM: it flushes and fsyncs its append-only file) and waited for,
 * and only then is the directory taken over.
 */
export class DataDirLock {
  private constructor(
    private readonly path: string,
    private holder: Holder,
  ) {}

  static async acquire(dir: string): Promise<DataDirLock> {
    const path = join(dir, LOCK_FILE);
    const mine: Holder = { ownerPid: process.pid, owner: processIdentity(process.pid) };
    for (let attempt = 0; ; attempt++) {
      try {
        writeFileSync(path, JSON.stringify(mine), { flag: 'wx' });
        return new DataDirLock(path, mine);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw error;
      }
      const holder = readHolder(path) ?? (attempt < 2 ? undefined : {});
      if (!holder) {
        // Probably being written by another starter this very moment; unreadable twice, it is treated as stale.
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      if (holder.ownerPid !== process.pid && isRunning(holder.ownerPid, holder.owner)) {
        throw new DataDirInUseError(
          `${dir} is in use by another running service (pid ${holder.ownerPid}${holder.port ? `, redis-server on port ${holder.port}` : ''}): stop it first, or use another DATA_DIR.`,
        );
      }
      if (holder.redisPid !== undefined && holder.redis !== undefined && isRunning(holder.redisPid, holder.redis)) {
        process.kill(holder.redisPid, 'SIGTERM');
        if (!(await waitForExit(holder.redisPid, holder.redis, STALE_SHUTDOWN_MS))) {
          throw new DataDirInUseError(
            `${dir}: the redis-server left by a previous run (pid ${holder.redisPid}) did not shut down within ${STALE_SHUTDOWN_MS / 1000}s; stop it, then start again.`,
          );
        }
      }
      rmSync(path, { force: true });
    }
  }

  /** Records the redis-server this owner started, so a later start can find it if this process dies. */
  recordRedis(redisPid: number, port: number) {
    this.holder = { ...this.holder, redisPid, redis: processIdentity(redisPid), port };
    const temporary = `${this.path}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(this.holder));
    renameSync(temporary, this.path);
  }

  release() {
    if (readHolder(this.path)?.ownerPid === this.holder.ownerPid) rmSync(this.path, { force: true });
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Holder;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return undefined;
  }
}
