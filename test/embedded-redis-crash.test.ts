import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { freePort } from '../src/platform/redis-server/free-port.js';
import { processIdentity } from '../src/platform/redis-server/process-identity.js';
import { ContractClient } from './support/contract-client.js';
import { registerAgent, type Account } from './support/accounts.js';
import { killChildren, spawnTsx } from './support/child-process.js';
import { eventually } from './support/eventually.js';

afterEach(killChildren);

/** Live (not zombie) processes whose working directory is `dir`: a redis-server chdirs into its --dir. */
function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) !== dir) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe('kill -9 of the service on its embedded Redis, then restart on the same DATA_DIR', () => {
  it('keeps every acknowledged write, never runs two redis-servers on the directory, and leaves a valid AOF', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-match-crash-'));
    const redisDir = join(dataDir, 'redis');
    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REDIS_URL: '',
      REGISTER_RATE_LIMIT: '100000',
      TOKEN_SECRET: 'crash-test-secret-crash-test-secret!',
    };
    const start = async () => {
      const service = spawnTsx(['src/main.ts', 'serve'], env);
      await service.waitFor(/listening on/);
      // One data directory, one redis-server: the one just started.
      expect(processesIn(redisDir)).toHaveLength(1);
      return service;
    };
    let opened: ContractClient | undefined;
    try {
      let service = await start();
      const api = (opened = await ContractClient.served(`http://127.0.0.1:${port}`));
      const [a, b] = [await registerAgent(api), await registerAgent(api)];
      await api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
      const matchId: number = (await api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id;
      const sentMessages: string[] = [];
      const registered: Account[] = [a, b];

      for (let round = 0; round < 3; round++) {
        let loading = true;
        const writer = async (id: number) => {
          for (let n = 0; loading; n++) {
            try {
              if (id === 0 && n % 5 === 0) {
                registered.push(await registerAgent(api));
              } else {
                const body = `round ${round} writer ${id} message ${n}`;
                const res = await api.post(`/api/v1/matches/${matchId}/messages`, { token: n % 2 ? a.token : b.token, body: { body } });
                if (res.status === 201) sentMessages.push(body);
              }
            } catch {
              // the connection died with the process: not acknowledged
            }
          }
        };
        const writers = Array.from({ length: 6 }, (_, id) => writer(id));
        // Killed in the middle of the load, once it is well under way (counted, not timed).
        const target = sentMessages.length + 40 + round * 20;
        await eventually('writes under way', () => sentMessages.length >= target, 20_000);
        service.child.kill('SIGKILL');
        await service.exited;
        loading = false;
        await Promise.all(writers);
        // Its redis-server does not outlive it: it shuts down by itself, gracefully.
        await eventually('no redis-server left on the directory', () => processesIn(redisDir).length === 0);
        service = await start();
      }

      expect(sentMessages.length).toBeGreaterThan(20);
      const stored = new Set<string>();
      for (let cursor = ''; ;) {
        const page = await api.get(`/api/v1/matches/${matchId}/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: a.token });
        expect(page.status).toBe(200);
        for (const message of page.body.items) stored.add(message.body);
        if (!page.body.next_cursor) break;
        cursor = encodeURIComponent(page.body.next_cursor);
      }
      expect(sentMessages.filter((body) => !stored.has(body))).toEqual([]);
      for (const account of registered) {
        const me = await api.get('/api/v1/me', { token: account.token });
        expect([me.status, me.body.id]).toEqual([200, account.user_id]);
      }

      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect(processesIn(redisDir)).toEqual([]);
      const manifest = readdirSync(join(redisDir, 'appendonlydir')).find((name) => name.endsWith('.manifest'))!;
      // Throws (exit status 1) when any AOF part or the manifest is invalid.
      expect(execFileSync('redis-check-aof', [join(redisDir, 'appendonlydir', manifest)], { encoding: 'utf8' })).toMatch(/valid/);
    } finally {
      opened?.close();
      for (const pid of processesIn(redisDir)) process.kill(pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a redis-server left running on the directory by a dead owner', () => {
  it('is shut down gracefully before a new one starts, and what it held is kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-match-stale-'));
    const redisDir = join(dataDir, 'redis');
    mkdirSync(redisDir);
    const redisPort = await freePort();
    const stale = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', redisDir, '--appendonly', 'yes', '--save', ''], {
      stdio: 'ignore',
    });
    try {
      // Queued until the server accepts connections.
      const client = new Redis(redisPort, '127.0.0.1', { retryStrategy: () => 50 }).on('error', () => {});
      await client.set('left-behind', 'still here');
      client.disconnect();
      // The owner recorded in the lock is gone (a pid that is not running); its redis-server is not.
      writeFileSync(
        join(redisDir, 'owner.lock'),
        JSON.stringify({ ownerPid: 999_999_999, owner: '1', redisPid: stale.pid, redis: processIdentity(stale.pid!), port: redisPort }),
      );

      const port = await freePort();
      const service = spawnTsx(['src/main.ts', 'serve'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, REDIS_URL: '' });
      await service.waitFor(/listening on/);
      // The stale server ended by its own graceful shutdown (exit 0 on SIGTERM), not by a kill.
      expect(stale.exitCode).toBe(0);
      expect(processesIn(redisDir)).toHaveLength(1);
      const url = /redis:\/\/127\.0\.0\.1:(\d+)/.exec(service.output())![1]!;
      const fresh = new Redis(Number(url), '127.0.0.1');
      expect(await fresh.get('left-behind')).toBe('still here');
      fresh.disconnect();
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      stale.kill('SIGKILL');
      for (const pid of processesIn(redisDir)) process.kill(pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
