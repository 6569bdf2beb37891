import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataDirLock } from './data-dir-lock.js';
import { freePort } from './free-port.js';
import { REDIS_SERVER_SETTINGS } from './redis-settings.js';
import { startRedisWatchdog } from './redis-watchdog.js';

export type RedisProcessOptions = {
  dir: string;
  port?: number;
  /** Append-only persistence (on for the embedded default, off for throw-away test servers). */
  persist?: boolean;
};

export class RedisNotFoundError extends Error {}
export { DataDirInUseError } from './data-dir-lock.js';

/** How long stop() waits for redis-server to finish its graceful shutdown. */
const STOP_TIMEOUT_MS = 10_000;

/**
 * A private `redis-server` child process: the embedded default of `npm start`, and the server each test
 * file starts on a free port. It can be stopped and started again on the same port and directory.
 * Its directory is locked (see DataDirLock) and a watchdog shuts it down if this process dies.
 */
export class RedisProcess {
  private child?: ChildProcess;
  private watchdog?: ChildProcess;
  private lock?: DataDirLock;
  port = 0;
  private readonly dir: string;
  // On exit without stop() (process.exit, an uncaught error) the server is asked to shut down gracefully.
  private readonly stopOnExit = () => this.child?.kill('SIGTERM');

  constructor(private readonly options: RedisProcessOptions) {
    this.dir = resolve(options.dir);
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The running server's process id (tests pause it with SIGSTOP). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<this> {
    mkdirSync(this.dir, { recursive: true });
    this.lock = await DataDirLock.acquire(this.dir);
    try {
      await this.spawnServer();
    } catch (error) {
      this.watchdog?.kill('SIGKILL');
      this.lock.release();
      this.lock = undefined;
      throw error;
    }
    return this;
  }

  private async spawnServer() {
    if (!this.port) this.port = this.options.port ?? (await freePort());
    const persist = this.options.persist ?? true;
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--appendonly',
      persist ? 'yes' : 'no',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      ...REDIS_SERVER_SETTINGS,
      '--daemonize',
      'no',
      '--loglevel',
      'notice',
    ];
    // Its own process group: a terminal's Ctrl-C reaches this process, which stops Redis after draining.
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    if (child.pid !== undefined) {
      const watchdog = startRedisWatchdog(child.pid);
      this.watchdog = watchdog;
      child.once('exit', () => watchdog.kill('SIGKILL'));
      this.lock!.recordRedis(child.pid, this.port);
    }
    process.once('exit', this.stopOnExit);
    await new Promise<void>((resolveStart, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) done();
      };
      const done = (error?: Error) => {
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        clearTimeout(timer);
        if (error) reject(error);
        else resolveStart();
      };
      const onExit = (code: number | null) => done(new Error(`redis-server exited with ${code}: ${output.trim().slice(-500)}`));
      const timer = setTimeout(() => done(new Error(`redis-server did not start within 10s: ${output.slice(-500)}`)), 10_000);
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', onExit);
      child.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ENOENT' ? new RedisNotFoundError('redis-server is not on PATH') : error));
    });
    // Keep draining so the pipe never fills.
    child.stdout?.resume();
    child.stderr?.resume();
  }

  /** Graceful: SIGTERM (Redis flushes its append-only file), then the directory is released. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    process.off('exit', this.stopOnExit);
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = await new Promise<boolean>((resolveStop) => {
        const timer = setTimeout(() => resolveStop(false), STOP_TIMEOUT_MS);
        child.once('exit', () => {
          clearTimeout(timer);
          resolveStop(true);
        });
        child.kill('SIGTERM');
      });
      // Still shutting down: keep the lock, so the next start waits for it.
      if (!exited) return;
    }
    this.watchdog?.kill('SIGKILL');
    this.watchdog = undefined;
    this.lock?.release();
    this.lock = undefined;
  }
}
