import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { freePort } from '../src/platform/redis-server/free-port.js';
import { NODE_MAJOR } from '../src/node-version.js';
import { killChildren, run as runToEnd, spawnTsx } from './support/child-process.js';

afterEach(killChildren);

const run = (env: Record<string, string>, args = ['serve']) => spawnTsx(['src/main.ts', ...args], env);

describe('npm start (the embedded default)', () => {
  it('starts a private redis-server, serves, and on SIGTERM stops both and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-match-main-'));
    const port = await freePort();
    const proc = run({ PORT: String(port), DATA_DIR: dataDir, REDIS_URL: '' });
    try {
      await proc.waitFor(/listening on/);
      const health = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(health.status).toBe(200);
      const redisPort = Number(/redis:\/\/127\.0\.0\.1:(\d+)/.exec(proc.output())![1]);
      expect(existsSync(join(dataDir, 'redis', 'appendonlydir'))).toBe(true);
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
      // the private redis-server is gone with it
      await expect(fetch(`http://127.0.0.1:${redisPort}`)).rejects.toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes a SIGTERM that comes while it starts: it finishes starting, then stops both and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-match-early-'));
    const proc = run({ PORT: String(await freePort()), DATA_DIR: dataDir, REDIS_URL: '' });
    try {
      await proc.waitFor(/started embedded redis-server/);
      expect(proc.output()).not.toMatch(/listening on/);
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
      expect(proc.output()).toMatch(/SIGTERM: stopping/);
      const redisPort = Number(/redis:\/\/127\.0\.0\.1:(\d+)/.exec(proc.output())![1]);
      await expect(fetch(`http://127.0.0.1:${redisPort}`)).rejects.toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a DATA_DIR that another running service owns, and leaves that service alone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-match-owned-'));
    const port = await freePort();
    const first = run({ PORT: String(port), DATA_DIR: dataDir, REDIS_URL: '' });
    try {
      await first.waitFor(/listening on/);
      const second = run({ PORT: String(await freePort()), DATA_DIR: dataDir, REDIS_URL: '' });
      expect(await Promise.race([second.exited, second.waitFor(/listening on/).then(() => 'listening too')])).toBe(1);
      expect(second.output()).toMatch(new RegExp(`is in use by another running service \\(pid ${first.child.pid}.*use another DATA_DIR`));
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a port another process listens on: one clear line, exit 1, the other left alone', async () => {
    const [firstDir, secondDir] = [mkdtempSync(join(tmpdir(), 'agent-match-port-a-')), mkdtempSync(join(tmpdir(), 'agent-match-port-b-'))];
    const port = await freePort();
    const first = run({ PORT: String(port), DATA_DIR: firstDir, REDIS_URL: '' });
    try {
      await first.waitFor(/listening on/);
      const second = run({ PORT: String(port), DATA_DIR: secondDir, REDIS_URL: '' });
      expect(await Promise.race([second.exited, second.waitFor(/listening on/).then(() => 'listening too')])).toBe(1);
      const errorLines = second
        .output()
        .split('\n')
        .filter((line) => line && !line.startsWith('{'));
      expect(errorLines).toEqual([
        `could not start: cannot listen on 0.0.0.0:${port}: the port is taken by another process (or the address is not this machine's); stop that process or choose another PORT.`,
      ]);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      rmSync(firstDir, { recursive: true, force: true });
      rmSync(secondDir, { recursive: true, force: true });
    }
  });

  it('prints one clear line per bad setting and exits non-zero', async () => {
    const proc = run({ PORT: 'eighty', TOKEN_TTL_SECONDS: '5', LOG_LEVEL: 'loud', LIKE_RATE_LIMIT: '1000000000' });
    expect(await proc.exited).toBe(1);
    const lines = proc
      .output()
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('config:'));
    expect(lines).toHaveLength(4);
    expect(lines).toContain('config: PORT="eighty" must be a whole number from 0 to 65535');
    expect(lines).toContain('config: TOKEN_TTL_SECONDS="5" must be a whole number from 60 to 31536000');
    expect(lines).toContain('config: LIKE_RATE_LIMIT="1000000000" must be a whole number from 1 to 100000');
  });

  it('says how to get Redis when REDIS_URL is unreachable', async () => {
    const port = await freePort();
    const proc = run({ PORT: String(await freePort()), REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+.*unset REDIS_URL/);
  });

  it('says how to get Redis when redis-server is not on PATH', async () => {
    const proc = run({ PORT: String(await freePort()), REDIS_URL: '', PATH: '/nonexistent', DATA_DIR: mkdtempSync(join(tmpdir(), 'agent-match-nopath-')) });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/redis-server is not on PATH: install Redis/);
  });
});

describe('on another Node.js than 22', () => {
  /** Node.js as a child that believes it is `version` from its first line on (before tsx and the service load). */
  const otherNode = (version: string, args: string[]) =>
    runToEnd(
      process.execPath,
      ['--import', `data:text/javascript,Object.defineProperty(process.versions, "node", { value: "${version}" })`, '--import', 'tsx', ...args],
      { LOG_LEVEL: 'info', REDIS_URL: 'redis://127.0.0.1:1' },
    );

  it('stops at once, before anything starts, with one line naming the version needed and how to get it', async () => {
    for (const command of ['serve', 'worker']) {
      const { code, stdout, stderr } = await otherNode('20.20.2', ['src/main.ts', command]);
      expect(code, command).toBe(1);
      expect(stdout, command).toBe('');
      expect(stderr.trim().split('\n'), command).toEqual([
        `agent-match needs Node.js ${NODE_MAJOR} (an older one lacks what it uses, such as the global WebSocket), and this is Node.js 20.20.2: install Node.js ${NODE_MAJOR} (nvm install ${NODE_MAJOR} && nvm use ${NODE_MAJOR}, or https://nodejs.org/en/download), then run npm ci and start again.`,
      ]);
    }
    // a later line, which uWebSockets.js has no binary for, is told so the same way
    const later = await otherNode('24.1.0', ['src/main.ts', 'serve']);
    expect(later.code).toBe(1);
    expect(later.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^agent-match needs Node\.js 22 \(uWebSockets\.js ships no binary for a later one\), and this is Node\.js 24\.1\.0: install Node\.js 22 /,
      ),
    ]);
  });

  it('is refused by npm ci too: engine-strict, with the same release line in package.json', () => {
    const root = join(import.meta.dirname, '..');
    expect(readFileSync(join(root, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node).toBe(`^${NODE_MAJOR}.0.0`);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(NODE_MAJOR);
  });
});

describe('numeric settings', () => {
  /** The one start-up line a bad value of `name` gets. */
  const problem = (name: string, value: string): string => {
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      if (error instanceof ConfigError && error.problems.length === 1) return error.problems[0]!;
      throw error;
    }
    return 'accepted';
  };
  const numeric = Object.entries(loadConfig({})).filter((entry): entry is [string, number] => typeof entry[1] === 'number');

  it('each have a range, named in the line of a value outside it, that holds the default', () => {
    expect(numeric.length).toBeGreaterThan(20);
    for (const [name, fallback] of numeric) {
      const line = problem(name, '1000000000000');
      const range = new RegExp(`^config: ${name}="1000000000000" must be a whole number from (\\d+) to (\\d+)$`).exec(line);
      expect(range, line).not.toBeNull();
      const [min, max] = [Number(range![1]), Number(range![2])];
      expect(fallback, name).toBeGreaterThanOrEqual(min);
      expect(fallback, name).toBeLessThanOrEqual(max);
      expect([problem(name, String(min)), problem(name, String(max))], name).toEqual(['accepted', 'accepted']);
      for (const bad of [String(min - 1), String(max + 1), 'lots', '1.5']) {
        expect(problem(name, bad)).toBe(`config: ${name}=${JSON.stringify(bad)} must be a whole number from ${min} to ${max}`);
      }
    }
  });
});
