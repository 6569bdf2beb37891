import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const lint = join(repo, 'scripts/lint-layers.mjs');
const config = join(repo, '.dependency-cruiser.cjs');

/** Runs `npm run lint:layers`'s checker with the repository's rules over a fixture tree. */
function runLint(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [lint, '--config', config, 'src'], { cwd }, (error, stdout, stderr) => {
      done({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

async function fixture(root: string, files: Record<string, string>) {
  await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

/** A tree that keeps every rule: each layer imports only the ones below it. */
const layered = {
  'src/domain/pool.ts': "export type Pool = 'agent' | 'member';\n",
  // A message may name a header in prose; only carrying one is HTTP.
  'src/domain/errors.ts': "export const unsupported = () => new Error('Send the body as JSON with \"Content-Type: application/json\".');\n",
  'src/store/users.ts': "import type { Pool } from '../domain/pool.js';\nexport class Users { find(pool: Pool) { return pool; } }\n",
  'src/services/accounts.ts': "import type { Users } from '../store/users.js';\nexport class Accounts { constructor(readonly users: Users) {} }\n",
  'src/http/metrics.ts': 'export const metrics = {};\n',
  'src/http/routes/account-routes.ts': "import type { Accounts } from '../../services/accounts.js';\nexport const routes = (a: Accounts) => [a];\n",
  'src/realtime/sockets.ts': "import { metrics } from '../http/metrics.js';\nexport const sockets = metrics;\n",
  'src/app.ts': "import { Users } from './store/users.js';\nimport { Accounts } from './services/accounts.js';\nimport { routes } from './http/routes/account-routes.js';\nexport const app = routes(new Accounts(new Users()));\n",
  'src/main.ts': "import { app } from './app.js';\nconsole.log(app);\n",
  'src/mcp/tools.ts': "import type { Pool } from '../domain/pool.js';\nexport const pools: Pool[] = ['agent'];\n",
};

describe('layer rules (npm run lint:layers)', () => {
  let clean: string;
  let leaky: string;

  beforeAll(async () => {
    clean = await mkdtemp(join(tmpdir(), 'layers-clean-'));
    leaky = await mkdtemp(join(tmpdir(), 'layers-leaky-'));
    await fixture(clean, layered);
    await fixture(leaky, {
      ...layered,
      'src/domain/pool.ts': "import { Users } from '../store/users.js';\nexport type Pool = 'agent' | 'member';\nexport const users = Users;\n",
      'src/domain/clock.ts': "import { readFileSync } from 'node:fs';\nexport const now = () => readFileSync('/dev/null');\n",
      'src/store/users.ts': "import type { Accounts } from '../services/accounts.js';\nexport class Users { accounts?: Accounts; find(pool: string) { return pool; } }\n",
      'src/http/routes/account-routes.ts': "import { Users } from '../../store/users.js';\nexport const routes = () => [new Users()];\n",
      'src/realtime/sockets.ts': "import { routes } from '../http/routes/account-routes.js';\nexport const sockets = routes;\n",
      'src/realtime/replay.ts': "import type { Users } from '../store/users.js';\nexport const replay = (users: Users) => users;\n",
      'src/jobs/worker.ts': "import { app } from '../app.js';\nexport const worker = app;\n",
      'src/mcp/tools.ts': "import { Accounts } from '../services/accounts.js';\nexport const tools = Accounts;\n",
      'src/services/listener.ts': "import { createServer } from 'node:http';\nexport const server = createServer;\n",
      'src/store/redis.ts': "export const createRedis = () => ({});\n",
      'src/services/direct.ts': "import type { Redis } from 'ioredis';\nimport { createRedis } from '../store/redis.js';\nexport const open = (): Redis => createRedis() as Redis;\n",
      'src/domain/login.ts': "import { z } from 'zod';\nexport const login = z.object({}).meta({ id: 'Login' });\n",
      'src/domain/errors.ts': "export class AppError extends Error {\n  headers?: Record<string, string>;\n}\nexport const limited = () => ({\n  'Retry-After': '1',\n});\n",
    });
  });

  afterAll(async () => {
    await Promise.all([clean, leaky].filter((dir) => dir !== undefined).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('passes a tree whose imports keep the layering', async () => {
    const { code, output } = await runLint(clean);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it('fails, naming each broken rule, when a lower layer or an edge imports what it may not', async () => {
    const { code, output } = await runLint(leaky);
    expect(code).not.toBe(0);
    expect(output).toMatch(/domain-is-pure: src\/domain\/pool\.ts → src\/store\/users\.ts/);
    expect(output).toMatch(/domain-is-pure: src\/domain\/clock\.ts → (node:)?fs/);
    expect(output).toMatch(/store-below-services: src\/store\/users\.ts → src\/services\/accounts\.ts/);
    expect(output).toMatch(/edges-go-through-services: src\/http\/routes\/account-routes\.ts → src\/store\/users\.ts/);
    expect(output).toMatch(/edges-go-through-services: src\/realtime\/replay\.ts → src\/store\/users\.ts/);
    expect(output).toMatch(/realtime-uses-only-shared-http: src\/realtime\/sockets\.ts → src\/http\/routes\/account-routes\.ts/);
    expect(output).toMatch(/only-main-starts-the-composition: src\/jobs\/worker\.ts → src\/app\.ts/);
    expect(output).toMatch(/services-know-no-transport: src\/services\/listener\.ts → (node:)?http\b/);
    expect(output).toMatch(/redis-only-in-store: src\/services\/direct\.ts → ioredis/);
    expect(output).toMatch(/only-the-composition-opens-connections: src\/services\/direct\.ts → src\/store\/redis\.ts/);
    expect(output).toMatch(/mcp-is-an-api-client: src\/mcp\/tools\.ts → src\/services\/accounts\.ts/);
    expect(output).toMatch(/no-cycles/);
    expect(output).toMatch(/domain-knows-no-http: src\/domain\/errors\.ts:2 carries an HTTP header \(headers\)/);
    expect(output).toMatch(/domain-knows-no-http: src\/domain\/errors\.ts:5 carries an HTTP header \(Retry-After\)/);
    expect(output).toMatch(/domain-knows-no-http: src\/domain\/login\.ts:2 carries OpenAPI metadata \(\.meta\)/);
  });
});
