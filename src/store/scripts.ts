import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import type { ScriptConnection, ScriptSource } from './script-connection.js';

const LUA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lua');

export type ScriptName = string;

/**
 * The Lua scripts of `lua/`, defined once on a client with ioredis `defineCommand`: each is sent by SHA
 * (EVALSHA) and re-sent only when Redis answers NOSCRIPT. `runDirect` runs one on the lean `direct`
 * connection instead, when there is one.
 */
export class Scripts {
  private readonly sources = new Map<string, ScriptSource>();

  constructor(
    private readonly redis: Redis,
    private readonly direct?: ScriptConnection,
  ) {
    for (const file of readdirSync(LUA_DIR)) {
      if (!file.endsWith('.lua')) continue;
      const name = file.slice(0, -'.lua'.length);
      const lua = readFileSync(join(LUA_DIR, file), 'utf8');
      redis.defineCommand(commandName(name), { lua });
      this.sources.set(name, { lua, sha: createHash('sha1').update(lua).digest('hex') });
    }
  }

  run<T = unknown>(name: ScriptName, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<T> {
    if (!this.sources.has(name)) throw new Error(`unknown Lua script ${name}`);
    const command = (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<T>>)[commandName(name)]!;
    return command.call(this.redis, keyList.length, ...keyList, ...args);
  }

  /**
   * Like `run`, for the hottest paths: on the lean connection, which is a separate connection, so use it
   * only for a script whose caller awaits it before its next Redis call.
   */
  runDirect<T = unknown>(name: ScriptName, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<T> {
    const source = this.sources.get(name);
    if (!source) throw new Error(`unknown Lua script ${name}`);
    if (!this.direct) return this.run(name, keyList, args);
    return this.direct.evalsha(source, keyList, args) as Promise<T>;
  }
}

const commandName = (name: string) => `lua_${name.replace(/[^a-z0-9]/gi, '_')}`;
