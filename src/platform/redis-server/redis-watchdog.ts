import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A tiny `sh` that outlives this process by design: it blocks reading a pipe whose only writer is this
 * process, so the read returns the moment this process dies, even by SIGKILL, and it then asks the
 * redis-server to shut down gracefully (SIGTERM: the append-only file is flushed and fsynced), then wakes it
 * (SIGCONT) in case it was stopped (a test pausing a node), since a stopped process takes no SIGTERM.
 * It ignores terminal signals, so a Ctrl-C reaches this process (which stops Redis itself) and not it.
 */
export function startRedisWatchdog(redisPid: number): ChildProcess {
  const script = 'trap "" INT HUP; read _; kill -TERM "$1" 2>/dev/null; kill -CONT "$1" 2>/dev/null';
  const watchdog = spawn('sh', ['-c', script, 'redis-watchdog', String(redisPid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.on('error', () => {});
  watchdog.stdin.on('error', () => {});
  // Neither the watchdog nor its pipe keeps this process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  return watchdog;
}
