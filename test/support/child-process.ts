import { spawn, type ChildProcess } from 'node:child_process';

const children: ChildProcess[] = [];

/** Kills every child a test started that is still running; call from afterEach. */
export function killChildren() {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** Runs a TypeScript entry under tsx as a real child process, collecting everything it prints. */
export function spawnTsx(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  /** The exit code; the signal's name (`SIGSEGV`) when a signal ended the process. */
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  /** Resolves once the output matches `pattern`; fails if the child exits first or time runs out. */
  const waitFor = async (pattern: RegExp, ms = 60_000) => {
    const started = Date.now();
    while (!pattern.test(output)) {
      if (Date.now() - started > ms) throw new Error(`timed out waiting for ${pattern}; output:\n${output}`);
      if (child.exitCode !== null) throw new Error(`exited early (${child.exitCode}):\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, waitFor, output: () => output };
}

export type Finished = { code: number | null; stdout: string; stderr: string };

/**
 * Starts `command` as a child process (in this directory unless `cwd` says another, so `node -e` resolves
 * packages from here), its output kept apart: `stdout` and `stderr` as they are so far, `waitFor` a pattern
 * in stdout, `exited`.
 */
export function start(command: string, args: string[], env: Record<string, string> = {}, cwd?: string) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], cwd });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<Finished>((resolve) => child.once('close', (code) => resolve({ code, ...out })));
  const waitFor = async (pattern: RegExp, ms = 60_000) => {
    const started = Date.now();
    while (!pattern.test(out.stdout)) {
      if (Date.now() - started > ms) throw new Error(`timed out waiting for ${pattern}; stdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
      if (child.exitCode !== null) throw new Error(`exited early (${child.exitCode}); stdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    get stdout() {
      return out.stdout;
    },
    get stderr() {
      return out.stderr;
    },
    waitFor,
    exited,
  };
}

/** Runs `command` to its end (killed after `timeoutMs`), whatever its exit code. */
export async function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<Finished> {
  const started = start(command, args, env);
  const timer = setTimeout(killChildren, timeoutMs);
  try {
    return await started.exited;
  } finally {
    clearTimeout(timer);
  }
}
