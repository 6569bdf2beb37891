import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RedisClient } from './redis.js';
import type { HotConnection } from './hot-connection.js';
import { ReplicasBehindError } from './redis-errors.js';
import { loadScripts, type LoadedScript } from './script-loader.js';
import type { Script } from './script.js';

// The code's own root: src/ under tsx, dist/ once built (the build copies the scripts there).
const SOURCE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the service's scripts are: each feature's `lua/` (and the platform's), beside the code that calls them. */
export const LUA_DIRS: readonly string[] = ['features', 'platform'].flatMap((layer) =>
  readdirSync(join(SOURCE_ROOT, layer), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(SOURCE_ROOT, layer, entry.name, 'lua')))
    .map((entry) => join(SOURCE_ROOT, layer, entry.name, 'lua')),
);

/** The fragments scripts share (`--- @include "includes/<name>"`), found here when not beside the script. */
export const SHARED_LUA_DIR = join(SOURCE_ROOT, 'platform', 'redis', 'lua');

/**
 * How many replicas must hold an acknowledged write before it is answered (REDIS_MIN_REPLICAS_ACK; 0: none
 * asked, as on a Redis without replicas), how long they have (REDIS_REPLICA_ACK_TIMEOUT_MS), and who hears
 * of a write they did not confirm in time.
 */
export type ReplicaAcknowledgement = { replicas: number; timeoutMs: number; onBehind?: () => void };

/**
 * The Lua scripts of `lua/` (loaded by src/platform/redis/script-loader.ts), called by their declarations
 * (see Script: each repository declares the scripts it runs, with their decoders), each sent by SHA
 * (EVALSHA) and re-sent whole (EVAL) only when Redis answers NOSCRIPT (a node that has not seen it yet,
 * or restarted). They are plain EVALSHA commands rather than
 * ioredis custom commands on purpose: ioredis knows where EVALSHA's keys are, so automatic pipelining
 * groups each call with the other commands of its slot; on a Redis Cluster it reaches the master of that
 * slot (following MOVED and ASK). A custom command would be grouped by its first argument, the key count.
 *
 * `runHot` sends the request path's busiest scripts over a hot connection of their own, on either
 * topology (see ScriptConnection: 2-7 µs of this process's CPU per call with 16 in flight, against 3.5-6
 * times that through ioredis; on a Redis Cluster, SlotRoutedConnection).
 * A call must pass the number of keys the script's file name says, or it is refused before it is sent;
 * its reply comes back decoded by the script's declaration.
 */
export class Scripts {
  private readonly sources: Map<string, LoadedScript>;

  constructor(
    private readonly redis: RedisClient,
    private readonly hot?: HotConnection,
    dirs: readonly string[] = LUA_DIRS,
    private readonly acknowledgement: ReplicaAcknowledgement = { replicas: 0, timeoutMs: 0 },
  ) {
    this.sources = loadScripts(dirs, SHARED_LUA_DIR);
  }

  async run<Reply>(script: Script<Reply>, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<Reply> {
    const source = this.source(script, keyList);
    let raw: unknown;
    try {
      raw = await this.redis.evalsha(source.sha, keyList.length, ...keyList, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      raw = await this.redis.eval(source.lua, keyList.length, ...keyList, ...args);
    }
    return script.decode(raw);
  }

  /**
   * Like `run`, on the hot connection when there is one. It is a connection apart, so its calls are not
   * ordered with the main client's: use it only where the caller awaits the script before any Redis
   * command that must come after it.
   */
  runHot<Reply>(script: Script<Reply>, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<Reply> {
    if (!this.hot) return this.run(script, keyList, args);
    return this.hot.evalsha(this.source(script, keyList), keyList, args, script.decode) as Promise<Reply>;
  }

  /**
   * Like `runHot`, for the writes an answer acknowledges (an account, a match, a message, an unmatch, a
   * block, a leave, a webhook, an event appended for a committed write): with replicas asked for, the script
   * is followed on its own connection by WAIT, and a write fewer replicas confirmed in time throws
   * ReplicasBehindError (503) rather than be acknowledged and lost to a failover.
   */
  async runAcknowledged<Reply>(script: Script<Reply>, keyList: readonly string[], args: readonly (string | number)[] = []): Promise<Reply> {
    const { replicas, timeoutMs, onBehind } = this.acknowledgement;
    if (!this.hot || replicas === 0) return this.runHot(script, keyList, args);
    try {
      return script.decode(await this.hot.evalshaReplicated(this.source(script, keyList), keyList, args, replicas, timeoutMs));
    } catch (error) {
      if (error instanceof ReplicasBehindError) onBehind?.();
      throw error;
    }
  }

  /** HGET and HMGET, on the hot connection when there is one (the same ordering caveat as `runHot`). */
  hgetHot(key: string, field: string): Promise<string | null> {
    return this.hot ? this.hot.hget(key, field) : this.redis.hget(key, field);
  }

  hmgetHot(key: string, fields: readonly string[]): Promise<Array<string | null>> {
    return this.hot ? this.hot.hmget(key, fields) : this.redis.hmget(key, ...fields);
  }

  /** HGETALL and XREVRANGE, on the hot connection when there is one (the same ordering caveat as `runHot`). */
  async hgetallHot(key: string): Promise<Record<string, string>> {
    if (!this.hot) return this.redis.hgetall(key);
    const flat = (await this.hot.read(key, ['HGETALL', key])) as string[];
    const hash: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i]!] = flat[i + 1]!;
    return hash;
  }

  /** A stream's newest `count` entries, newest first: each its id and its flat fields. */
  newestEntriesHot(key: string, count: number): Promise<Array<[string, string[]]>> {
    const words = ['XREVRANGE', key, '+', '-', 'COUNT', count] as const;
    return (this.hot ? this.hot.read(key, words) : this.redis.xrevrange(key, '+', '-', 'COUNT', count)) as Promise<Array<[string, string[]]>>;
  }

  private source({ name }: Script<unknown>, keyList: readonly string[]): LoadedScript {
    const source = this.sources.get(name);
    if (!source) throw new Error(`no Lua script file for ${name} in lua/`);
    const { count, more } = source.keys;
    if (keyList.length === count || (more && keyList.length > count)) return source;
    throw new Error(`Lua script ${name} takes ${more ? 'at least ' : ''}${count} keys (${basename(source.file)}); called with ${keyList.length}`);
  }
}
