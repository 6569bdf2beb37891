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
    execFile(process.execPath, [lint, '--config', config, 'src', 'clients/typescript/src'], { cwd }, (error, stdout, stderr) => {
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

/** A tree that keeps every rule: a feature over the platform, another feature through its index, clients apart. */
const layered = {
  'src/platform/core/pool.ts': "export type Pool = 'agent' | 'member';\n",
  'src/platform/redis/redis.ts':
    'export type RedisClient = { get(key: string): Promise<string> };\nexport const createRedis = (): RedisClient => ({ get: async (key) => key });\n',
  'src/features/accounts/account-schemas.ts':
    "import { z } from 'zod';\nimport type { Pool } from '../../platform/core/pool.js';\nexport const login = z.object({});\nexport const pools: Pool[] = ['agent'];\n",
  'src/features/accounts/user-repository.ts':
    "import type { RedisClient } from '../../platform/redis/redis.js';\nexport class Users { constructor(readonly redis: RedisClient) {} }\n",
  'src/features/accounts/account-service.ts':
    "import type { Users } from './user-repository.js';\nexport class Accounts { constructor(readonly users: Users) {} }\n",
  'src/features/accounts/account-routes.ts': "import type { Accounts } from './account-service.js';\nexport const accountRoutes = (a: Accounts) => [a];\n",
  'src/features/accounts/index.ts': "export { Accounts } from './account-service.js';\nexport { accountRoutes } from './account-routes.js';\n",
  'src/features/swipes/swipe-service.ts':
    "import { Accounts } from '../accounts/index.js';\nimport { login } from '../accounts/account-schemas.js';\nexport const swipes = [Accounts, login];\n",
  'src/clients/tools.ts': "import { login } from '../features/accounts/account-schemas.js';\nexport const tools = login;\n",
  'src/app.ts':
    "import { createRedis } from './platform/redis/redis.js';\nimport { accountRoutes } from './features/accounts/index.js';\nimport { Users } from './features/accounts/user-repository.js';\nimport { connections } from './app/connections.js';\nexport const app = [createRedis, accountRoutes, Users, connections];\n",
  // A part of the server's composition: it opens connections and builds repositories, as app.ts does.
  'src/app/connections.ts':
    "import { createRedis } from '../platform/redis/redis.js';\nimport { Users } from '../features/accounts/user-repository.js';\nexport const connections = [createRedis, Users];\n",
  'src/main.ts': "import { app } from './app.js';\nexport const main = app;\n",
  'clients/typescript/src/types.ts': "export type Pool = 'agent' | 'member';\n",
  'clients/typescript/src/index.ts': "import type { Pool } from './types.js';\nexport const pools: Pool[] = ['agent'];\n",
};

describe('layer rules (npm run lint:layers)', () => {
  let clean: string;
  let leaky: string;
  let circular: string;

  beforeAll(async () => {
    clean = await mkdtemp(join(tmpdir(), 'layers-clean-'));
    leaky = await mkdtemp(join(tmpdir(), 'layers-leaky-'));
    circular = await mkdtemp(join(tmpdir(), 'layers-circular-'));
    await fixture(clean, layered);
    await fixture(leaky, {
      ...layered,
      'src/platform/core/pool.ts':
        "import { Users } from '../../features/accounts/user-repository.js';\nexport type Pool = 'agent' | 'member';\nexport const users = Users;\n",
      'src/platform/core/clock.ts': "import { readFileSync } from 'node:fs';\nexport const now = () => readFileSync('/dev/null');\n",
      'src/features/accounts/user-repository.ts': "import { Accounts } from './account-service.js';\nexport class Users { accounts?: Accounts; }\n",
      'src/features/accounts/account-service.ts': "import { Users } from './user-repository.js';\nexport class Accounts { users = Users; }\n",
      'src/features/swipes/swipe-service.ts':
        "import { Users } from '../accounts/user-repository.js';\nimport { createServer } from 'node:http';\nexport const swipes = [Users, createServer];\n",
      'src/features/swipes/swipe-worker.ts':
        "import { accountRoutes } from '../accounts/account-routes.js';\nimport { app } from '../../app.js';\nimport { connections } from '../../app/connections.js';\nexport const worker = [accountRoutes, app, connections];\n",
      'src/features/matches/match-service.ts':
        "import type { Redis } from 'ioredis';\nimport { createRedis } from '../../platform/redis/redis.js';\nexport const open = (): Redis => createRedis() as unknown as Redis;\n",
      'src/clients/tools.ts': "import { Accounts } from '../features/accounts/index.js';\nexport const tools = Accounts;\n",
      'clients/typescript/src/index.ts': "import type { Pool } from '../../../src/platform/core/pool.js';\nexport const pools: Pool[] = ['agent'];\n",
      'src/features/accounts/account-endpoints.ts': "import { Accounts } from './account-service.js';\nexport const accountEndpoints = { me: Accounts };\n",
      'src/clients/route-tools.ts': "import { accountEndpoints } from '../features/accounts/account-endpoints.js';\nexport const tools = accountEndpoints;\n",
      'src/features/accounts/account-schemas.ts':
        "import { z } from 'zod';\nimport { Users } from './user-repository.js';\nexport const login = z.object({}).meta({ id: 'Login' });\nexport const users = Users;\n",
      'src/platform/core/errors.ts':
        "export class AppError extends Error {\n  headers?: Record<string, string>;\n}\nexport const limited = () => ({\n  'Retry-After': '1',\n});\n",
      // A route holding a repository, and calling a helper that runs a Redis command (HLEN) outside any repository.
      'src/features/accounts/account-routes.ts':
        "import { Users } from './user-repository.js';\nimport { pendingCount } from './pending-count.js';\nexport const accountRoutes = () => [new Users(), pendingCount];\n",
      'src/features/accounts/pending-count.ts':
        "import type { RedisClient } from '../../platform/redis/redis.js';\nexport const pendingCount = (redis: RedisClient) => (redis as unknown as { hlen(key: string): Promise<number> }).hlen('am:pending');\n",
      // The HTTP platform holding the Redis client under the project's name for it, as a type only.
      'src/platform/http/health.ts':
        "import type { RedisClient } from '../redis/redis.js';\nexport const health = (redis: RedisClient) => redis.get('am:health');\n",
      // A service issuing GET.
      'src/features/swipes/swipe-count-service.ts':
        "import type { RedisClient } from '../../platform/redis/redis.js';\nexport class SwipeCounts { constructor(private readonly redis: RedisClient) {}\n  count() { return this.redis.get('am:swipes'); } }\n",
      // A feature's index exporting its repository.
      'src/features/accounts/index.ts':
        "export { Accounts } from './account-service.js';\nexport { accountRoutes } from './account-routes.js';\nexport { Users } from './user-repository.js';\n",
    });
    await fixture(circular, {
      ...layered,
      // Two features naming each other's types only: a circle all the same.
      'src/features/blocks/block.ts': "import type { Report } from '../moderation/index.js';\nexport type Block = { id: number; report?: Report };\n",
      'src/features/blocks/index.ts': "export type { Block } from './block.js';\n",
      'src/features/moderation/report.ts': "import type { Block } from '../blocks/index.js';\nexport type Report = { id: number; block?: Block };\n",
      'src/features/moderation/index.ts': "export type { Report } from './report.js';\n",
    });
  });

  afterAll(async () => {
    await Promise.all([clean, leaky, circular].filter((dir) => dir !== undefined).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('passes a tree whose imports keep the layering', async () => {
    const { code, output } = await runLint(clean);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it('fails, naming each broken rule, when a module imports what it may not', async () => {
    const { code, output } = await runLint(leaky);
    expect(code).not.toBe(0);
    expect(output).toMatch(/platform-knows-no-feature: src\/platform\/core\/pool\.ts → src\/features\/accounts\/user-repository\.ts/);
    expect(output).toMatch(/pure-modules-are-pure: src\/platform\/core\/clock\.ts → (node:)?fs/);
    expect(output).toMatch(/pure-modules-are-pure: src\/features\/accounts\/account-schemas\.ts → src\/features\/accounts\/user-repository\.ts/);
    expect(output).toMatch(/repositories-below-services: src\/features\/accounts\/user-repository\.ts → src\/features\/accounts\/account-service\.ts/);
    expect(output).toMatch(/routes-go-through-services: src\/features\/accounts\/account-routes\.ts → src\/features\/accounts\/user-repository\.ts/);
    expect(output).toMatch(/features-meet-through-their-index: src\/features\/swipes\/swipe-service\.ts → src\/features\/accounts\/user-repository\.ts/);
    expect(output).toMatch(/routes-are-the-top-of-a-feature: src\/features\/swipes\/swipe-worker\.ts → src\/features\/accounts\/account-routes\.ts/);
    expect(output).toMatch(/the-composition-is-the-root: src\/features\/swipes\/swipe-worker\.ts → src\/app\.ts/);
    expect(output).toMatch(/server-parts-belong-to-app: src\/features\/swipes\/swipe-worker\.ts → src\/app\/connections\.ts/);
    expect(output).toMatch(/services-know-no-transport: src\/features\/swipes\/swipe-service\.ts → (node:)?http\b/);
    expect(output).toMatch(/redis-only-in-repositories: src\/features\/matches\/match-service\.ts → ioredis/);
    expect(output).toMatch(/redis-only-in-repositories: src\/features\/accounts\/pending-count\.ts → src\/platform\/redis\/redis\.ts/);
    expect(output).toMatch(/redis-only-in-repositories: src\/platform\/http\/health\.ts → src\/platform\/redis\/redis\.ts/);
    expect(output).toMatch(/redis-only-in-repositories: src\/features\/swipes\/swipe-count-service\.ts → src\/platform\/redis\/redis\.ts/);
    expect(output).toMatch(/index-exports-no-repositories: src\/features\/accounts\/index\.ts → src\/features\/accounts\/user-repository\.ts/);
    expect(output).toMatch(/only-the-composition-opens-connections: src\/features\/matches\/match-service\.ts → src\/platform\/redis\/redis\.ts/);
    expect(output).toMatch(/clients-speak-the-public-api: src\/clients\/tools\.ts → src\/features\/accounts\/index\.ts/);
    expect(output).toMatch(/client-package-stands-alone: clients\/typescript\/src\/index\.ts → src\/platform\/core\/pool\.ts/);
    expect(output).toMatch(/declarations-only-describe: src\/features\/accounts\/account-endpoints\.ts → src\/features\/accounts\/account-service\.ts/);
    // A client may read a feature's route declarations.
    expect(output).not.toMatch(/src\/clients\/route-tools\.ts/);
    expect(output).toMatch(/no-cycles/);
    expect(output).toMatch(/pure-modules-know-no-http: src\/platform\/core\/errors\.ts:2 carries an HTTP header \(headers\)/);
    expect(output).toMatch(/pure-modules-know-no-http: src\/platform\/core\/errors\.ts:5 carries an HTTP header \(Retry-After\)/);
    expect(output).toMatch(/pure-modules-know-no-http: src\/features\/accounts\/account-schemas\.ts:3 carries OpenAPI metadata \(\.meta\)/);
  });

  it('fails on two features importing each other in a circle, though only for types', async () => {
    const { code, output } = await runLint(circular);
    expect(code).not.toBe(0);
    expect(output).toMatch(/no-cycles: src\/features\/blocks\/block\.ts → src\/features\/moderation\/index\.ts/);
    expect(output).toMatch(/no-cycles: src\/features\/moderation\/report\.ts → src\/features\/blocks\/index\.ts/);
  });
});
