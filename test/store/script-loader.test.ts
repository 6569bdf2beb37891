import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { loadScripts } from '../../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR, type Scripts } from '../../src/platform/redis/scripts.js';
import { updateProfile } from '../../src/features/accounts/user-repository.js';
import { claimWebhookPing } from '../../src/features/webhooks/webhook-repository.js';
import { startStore } from '../support/stack.js';

let store: Awaited<ReturnType<typeof startStore>>;
let client: RedisClient;
let scripts: Scripts;
const dirs: string[] = [];

beforeAll(async () => {
  store = await startStore();
  ({ redis: client, scripts } = store);
});
afterAll(async () => {
  await store?.cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A directory of scripts and fragments: file path (relative) → text. */
function scriptDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-match-lua-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the script loader', () => {
  it('refuses a script file whose name does not carry its number of keys', () => {
    const dir = scriptDir({ 'claim-1.lua': 'return 1\n', 'unclaim.lua': 'return 0\n' });
    expect(() => loadScripts([dir])).toThrow(/unclaim\.lua: a script's file name carries its number of keys/);
  });

  it('refuses a call with another number of keys than the file name says, before it reaches Redis', async () => {
    const claim = { key: '{webhook-ping}:claim', other: '{webhook-ping}:other' };
    await expect(scripts.run(claimWebhookPing, [claim.key, claim.other], ['ping-1', 60_000])).rejects.toThrow(
      'Lua script claim_webhook_ping takes 1 keys (claim_webhook_ping-1.lua); called with 2',
    );
    await expect(scripts.runHot(claimWebhookPing, [], ['ping-1', 60_000])).rejects.toThrow(/takes 1 keys .*called with 0/);
    expect(await client.exists(claim.key)).toBe(0);
    await expect(scripts.run(claimWebhookPing, [claim.key], ['ping-1', 60_000])).resolves.toBeUndefined();
    expect(await client.get(claim.key)).toBe('ping-1');
  });

  it('takes a list of keys after the fixed ones where the file name says so (<name>-<keys>+.lua), never fewer', async () => {
    await expect(scripts.run(updateProfile, ['{p}:accounts', '{p}:suspended'], [1, '', '', 0, 0, 0])).rejects.toThrow(
      'Lua script update_profile takes at least 3 keys (update_profile-3+.lua); called with 2',
    );
    await expect(scripts.run(updateProfile, ['{p}:accounts', '{p}:suspended', '{p}:roster:0'], [1, '', '', 0, 0, 0])).resolves.toBe('missing');
    await expect(scripts.run(updateProfile, ['{p}:accounts', '{p}:suspended', '{p}:roster:0', '{p}:set'], [1, '', '', 0, 0, 0])).resolves.toBe('missing');
  });

  it('expands each include once per script, where it is first included, even when included again directly or through another include', async () => {
    const dir = scriptDir({
      'includes/count.lua': "redis.call('INCR', KEYS[1])\n",
      'includes/count_and_read.lua': '--- @include "count"\nlocal function read() return redis.call(\'GET\', KEYS[1]) end\n',
      'counted-1.lua': [
        '#!lua',
        '--- @include "includes/count"',
        '--- @include "includes/count_and_read"',
        '--- @include "includes/count"',
        'return read()',
        '',
      ].join('\n'),
    });
    const counted = loadScripts([dir]).get('counted')!;
    expect(counted.lua.match(/INCR/g)).toHaveLength(1);
    expect(counted.lua).not.toContain('@include');
    expect(counted.lua.startsWith('#!lua\n')).toBe(true);
    expect(counted.sha).toBe(createHash('sha1').update(counted.lua).digest('hex'));
    // Redis caches the expanded text under that SHA: the fragment ran once per call.
    expect(await client.eval(counted.lua, 1, '{counted}')).toBe('1');
    expect(await client.evalsha(counted.sha, 1, '{counted}')).toBe('2');
  });

  it('finds the file of every script the code declares, and a declaration of every script file', () => {
    const declared = new Set<string>();
    for (const entry of readdirSync('src', { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      for (const [, name] of readFileSync(join(entry.parentPath, entry.name), 'utf8').matchAll(/\bscript\(\s*'([a-z_]+)'/g)) declared.add(name!);
    }
    expect([...declared].sort()).toEqual([...loadScripts(LUA_DIRS, SHARED_LUA_DIR).keys()].sort());
  });

  it('refuses an include that does not exist, or that includes what includes it', () => {
    const missing = scriptDir({ 'lost-0.lua': '--- @include "includes/nowhere"\nreturn 1\n' });
    expect(() => loadScripts([missing])).toThrow(/lost-0\.lua: includes .*includes\/nowhere\.lua, which does not exist/);
    const circle = scriptDir({
      'includes/a.lua': '--- @include "b"\n',
      'includes/b.lua': '--- @include "a"\n',
      'loop-0.lua': '--- @include "includes/a"\nreturn 1\n',
    });
    expect(() => loadScripts([circle])).toThrow(/b\.lua: includes "a", which includes it back/);
  });
});
