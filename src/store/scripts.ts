import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RedisClient } from './redis.js';

const LUA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lua');

export type ScriptName = string;

/**
 * The Lua scripts of `lua/`, defined once on a client with ioredis `defineCommand`: each is sent by SHA
 * (EVALSHA) and re-sent only when Redis answers NOSCRIPT. On a Redis Cluster, ioredis sends each call to the
 * master of its keys' slot (following MOVED and ASK), and each node caches the script on first use.
 */
export class Scripts {
  private readonly names = new Set<string>();

  constructor(private readonly redis: RedisClient) {
    for (const file of readdirSync(LUA_DIR)) {
      if (!file.endsWith('.lua')) continue;
      const name = file.slice(0, -'.lua'.length);
      const lua = readFileSync(join(LUA_DIR, file), 'utf8');
      redis.defineCommand(commandName(name), { lua });
      this.names.add(name);
    }
  }

  run<T = unknown>(name: ScriptName, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<T> {
    if (!this.names.has(name)) throw new Error(`unknown Lua script ${name}`);
    const command = (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<T>>)[commandName(name)]!;
    return command.call(this.redis, keyList.length, ...keyList, ...args);
  }

  /** The same as `run` (the hottest paths once had a connection of their own); kept for its callers. */
  runDirect<T = unknown>(name: ScriptName, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<T> {
    return this.run<T>(name, keyList, args);
  }
}

const commandName = (name: string) => `lua_${name.replace(/[^a-z0-9]/gi, '_')}`;
