import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../src/store/free-port.js';
import { killChildren, spawnTsx } from './support/child-process.js';

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
      const errorLines = second.output().split('\n').filter((line) => line && !line.startsWith('{'));
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
    const proc = run({ PORT: 'eighty', TOKEN_TTL_SECONDS: '5', LOG_LEVEL: 'loud' });
    expect(await proc.exited).toBe(1);
    const lines = proc.output().trim().split('\n').filter((l) => l.startsWith('config:'));
    expect(lines).toHaveLength(3);
    expect(proc.output()).toMatch(/config: PORT="eighty"/);
    expect(proc.output()).toMatch(/config: TOKEN_TTL_SECONDS="5"/);
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
