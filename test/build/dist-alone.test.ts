import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/platform/redis-server/free-port.js';
import { JsonClient } from '../../src/clients/json-client.js';
import { registerAgent } from '../support/accounts.js';
import { killChildren, run, start } from '../support/child-process.js';

const root = resolve(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'agent-match-dist-'));
afterAll(() => {
  killChildren();
  rmSync(out, { recursive: true, force: true });
});

describe('the built service', () => {
  it('runs from dist/ alone, with no src/ beside it: its scripts answer, and the spectator page is served', async () => {
    // Built as `npm run build` builds, into a directory that holds only the build, package.json and node_modules.
    const tsc = await run(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(out, 'dist')],
      {},
      240_000,
    );
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
    const assets = await run(process.execPath, ['scripts/copy-assets.mjs', join(out, 'dist')]);
    expect(assets.code, assets.stderr).toBe(0);
    copyFileSync(join(root, 'package.json'), join(out, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
    expect(existsSync(join(out, 'src'))).toBe(false);

    const port = await freePort();
    const service = start(
      process.execPath,
      [join(out, 'dist/main.js'), 'serve'],
      { PORT: String(port), DATA_DIR: join(out, 'data'), REDIS_URL: '', LOG_LEVEL: 'info' },
      out,
    );
    await service.waitFor(/listening on/, 120_000);
    const base = `http://127.0.0.1:${port}`;
    const api = new JsonClient(base);
    try {
      const agent = await registerAgent(api);
      // A swipe runs the swipe scripts: on nobody it is their 404, not a 500 for a script that is missing.
      expect((await api.post('/api/v1/likes/999999?kind=pass', { token: agent.token })).status).toBe(404);
    } finally {
      api.close();
    }
    const page = await fetch(`${base}/spectator`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/synthetic/i);
  }, 300_000);
});
