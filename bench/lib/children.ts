import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** Every child process the bench started, so that it can always stop them, however it ends. */
const running = new Set<ChildProcess>();

export const REPO_ROOT = new URL('../..', import.meta.url).pathname;

/**
 * Starts a TypeScript entry point in its own Node process (tsx loader), tracked for cleanup. The shell
 * raises the child's open-file limit to the hard limit first (sockets are files), then execs Node, so the
 * child's pid is Node's. Children get their own process group, so a Ctrl-C at the terminal reaches only
 * the bench, which then finishes its phase, writes the report and stops them itself. `cwd`: the tree whose
 * file runs (another checkout's, for --compare).
 */
export function spawnTs(file: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env, ipc = false, cwd = REPO_ROOT): ChildProcess {
  const script = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"';
  const child = spawn('/bin/sh', ['-c', script, process.execPath, '--import', 'tsx', file, ...args], {
    cwd,
    env,
    detached: true,
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * Starts a program (not a TypeScript entry point: e.g. wrk) tracked for cleanup like spawnTs's children, in a
 * process group of its own so that a Ctrl-C at the terminal reaches only the bench.
 */
export function spawnTracked(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(command, args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Resolves with the first stdout line `accept` returns a value for; rejects on exit or timeout. */
export function waitForLine<T>(child: ChildProcess, accept: (line: string) => T | undefined, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const tail: string[] = [];
    const lines = createInterface({ input: child.stdout! });
    const errors = createInterface({ input: child.stderr! });
    errors.on('line', (line) => tail.push(line) > 20 && tail.shift());
    const finish = (error?: Error, value?: T) => {
      clearTimeout(timer);
      lines.off('line', onLine);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    };
    const onLine = (line: string) => {
      if (tail.push(line) > 20) tail.shift();
      const value = accept(line);
      if (value !== undefined) finish(undefined, value);
    };
    const onExit = (code: number | null) => finish(new Error(`${what} exited (${code}) before it was ready:\n${tail.join('\n')}`));
    const timer = setTimeout(() => finish(new Error(`${what} was not ready within ${timeoutMs / 1000}s:\n${tail.join('\n')}`)), timeoutMs);
    lines.on('line', onLine);
    child.once('exit', onExit);
  });
}

/** The next IPC message of `type` from `child`; rejects if it exits first or after `timeoutMs`. */
export function nextMessage<T>(child: ChildProcess, type: string, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== type) return;
      cleanup();
      resolve(message as T);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${what} exited (${code}) while waiting for "${type}"`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${what} did not answer "${type}" within ${timeoutMs / 1000}s`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Last resort on exit: SIGKILL whatever is still running. */
export function killAllChildren() {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * Runs a bench entry point: exits with the code `main` resolves to, or 1 after printing what it threw;
 * every child it started is killed whichever way the process ends.
 */
export function runMain(main: () => Promise<number>) {
  process.on('exit', killAllChildren);
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      killAllChildren();
      process.exit(1);
    },
  );
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds the whole machine has been busy so far, every core together (/proc/stat: all but idle and
 * iowait), so that a window can tell what other processes took beside the ones measured; undefined elsewhere.
 */
export function machineBusyCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The soft open-file limit of a process, from /proc (Linux); undefined elsewhere. */
export function openFileLimit(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}
