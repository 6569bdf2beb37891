import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from './free-port.js';

export type RedisProcessOptions = {
  dir: string;
  port?: number;
  /** Append-only persistence (on for the embedded default, off for throw-away test servers). */
  persist?: boolean;
};

export class RedisNotFoundError extends Error {}

/**
 * A private `redis-server` child process: the embedded default of `npm start`, and the server each test
 * file starts on a free port. It can be stopped and started again on the same port and directory.
 */
export class RedisProcess {
  private child?: ChildProcess;
  port = 0;
  private readonly dir: string;
  private readonly killOnExit = () => this.child?.kill('SIGKILL');

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
    if (!this.port) this.port = this.options.port ?? (await freePort());
    const persist = this.options.persist ?? true;
    const args = [
      '--port', String(this.port),
      '--bind', '127.0.0.1',
      '--dir', this.dir,
      '--appendonly', persist ? 'yes' : 'no',
      '--appendfsync', 'everysec',
      '--save', '',
      '--maxmemory-policy', 'noeviction',
      '--daemonize', 'no',
      '--loglevel', 'notice',
    ];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    process.once('exit', this.killOnExit);
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
      child.once('error', (error: NodeJS.ErrnoException) =>
        done(error.code === 'ENOENT' ? new RedisNotFoundError('redis-server is not on PATH') : error),
      );
    });
    // Keep draining so the pipe never fills.
    child.stdout?.resume();
    child.stderr?.resume();
    return this;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    process.off('exit', this.killOnExit);
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolveStop) => {
      child.once('exit', () => resolveStop());
      child.kill('SIGTERM');
    });
  }
}
