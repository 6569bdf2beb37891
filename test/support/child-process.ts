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
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Resolves once the output matches `pattern`; fails if the child exits first or time runs out. */
  const waitFor = async (pattern: RegExp, ms = 20_000) => {
    const started = Date.now();
    while (!pattern.test(output)) {
      if (Date.now() - started > ms) throw new Error(`timed out waiting for ${pattern}; output:\n${output}`);
      if (child.exitCode !== null) throw new Error(`exited early (${child.exitCode}):\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, waitFor, output: () => output };
}
