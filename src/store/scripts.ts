import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RedisClient } from './redis.js';
import type { HotConnection } from './hot-connection.js';

const LUA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lua');

export type ScriptName = string;

type Source = { lua: string; sha: string };

/**
 * The Lua scripts of `lua/`, each sent by SHA (EVALSHA) and re-sent whole (EVAL) only when Redis answers
 * NOSCRIPT (a node that has not seen it yet, or restarted). They are plain EVALSHA commands rather than
 * ioredis custom commands on purpose: ioredis knows where EVALSHA's keys are, so automatic pipelining
 * groups each call with the other commands of its slot; on a Redis Cluster it reaches the master of that
 * slot (following MOVED and ASK). A custom command would be grouped by its first argument, the key count.
 *
 * `runHot` sends the request path's busiest scripts over a lean connection of their own, on either
 * topology (see ScriptConnection: 2-7 µs of this process's CPU per call with 16 in flight, against 3.5-6
 * times that through ioredis; on a Redis Cluster, SlotRoutedConnection).
 */
export class Scripts {
  private readonly sources = new Map<string, Source>();

  constructor(
    private readonly redis: RedisClient,
    private readonly lean?: HotConnection,
  ) {
    for (const file of readdirSync(LUA_DIR)) {
      if (!file.endsWith('.lua')) continue;
      const lua = readFileSync(join(LUA_DIR, file), 'utf8');
      this.sources.set(file.slice(0, -'.lua'.length), { lua, sha: createHash('sha1').update(lua).digest('hex') });
    }
  }

  async run<T = unknown>(name: ScriptName, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<T> {
    const source = this.source(name);
    try {
      return (await this.redis.evalsha(source.sha, keyList.length, ...keyList, ...args)) as T;
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return (await this.redis.eval(source.lua, keyList.length, ...keyList, ...args)) as T;
    }
  }

  /**
   * Like `run`, on the lean connection when there is one. It is a connection apart, so its calls are not
   * ordered with the main client's: use it only where the caller awaits the script before any Redis
   * command that must come after it.
   */
  runHot<T = unknown>(name: ScriptName, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<T> {
    if (!this.lean) return this.run(name, keyList, args);
    return this.lean.evalsha(this.source(name), keyList, args) as Promise<T>;
  }

  /** HGET and HMGET, on the lean connection when there is one (the same ordering caveat as `runHot`). */
  hgetHot(key: string, field: string): Promise<string | null> {
    return this.lean ? this.lean.hget(key, field) : this.redis.hget(key, field);
  }

  hmgetHot(key: string, fields: readonly string[]): Promise<Array<string | null>> {
    return this.lean ? this.lean.hmget(key, fields) : this.redis.hmget(key, ...fields);
  }

  private source(name: ScriptName): Source {
    const source = this.sources.get(name);
    if (!source) throw new Error(`unknown Lua script ${name}`);
    return source;
  }
}
