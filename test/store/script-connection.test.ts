import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../src/platform/redis/redis.js';
import { ConnectionClosedError, ScriptConnection } from '../../src/platform/redis/script-connection.js';
import { loadScripts } from '../../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR, Scripts } from '../../src/platform/redis/scripts.js';
import { rateLimit as rateLimitScript } from '../../src/platform/limits/rate-limit-repository.js';
import { startRedis } from '../support/stack.js';
import { eventually } from '../support/eventually.js';

let redis: Awaited<ReturnType<typeof startRedis>>;
let client: ReturnType<typeof createRedis>;
let connection: ScriptConnection;
let scripts: Scripts;

beforeAll(async () => {
  redis = await startRedis();
  client = createRedis({ kind: 'single', url: redis.url });
  await client.connect();
  // Calls here wait for Redis however long a busy machine takes: only the test of the timeout has a short one.
  connection = new ScriptConnection(redis.url, 60_000);
  await connection.connect();
  scripts = new Scripts(client, connection);
});
afterAll(async () => {
  await connection?.quit();
  client?.disconnect();
  await redis?.cleanup();
});

const hit = (run: Scripts['run'], key: string, member = 'hit-1') => run(rateLimitScript, [key], [5, 60_000, member]);
const rateLimit = (key: string) => hit(scripts.runHot.bind(scripts), key);
const RATE_LIMIT_SHA = loadScripts(LUA_DIRS, SHARED_LUA_DIR).get('rate_limit')!.sha;

describe('ScriptConnection', () => {
  it('answers like the main client, calls made together in order', async () => {
    const calls = (run: Scripts['run'], prefix: string) => Array.from({ length: 30 }, (_, i) => hit(run, `${prefix}:${i % 3}`, `m${i}`));
    const direct = await Promise.all(calls(scripts.runHot.bind(scripts), 'rl:direct'));
    const main = await Promise.all(calls(scripts.run.bind(scripts), 'rl:main'));
    // [allowed, hits so far]: the third figure is a time
    expect(direct.map((r) => [r.allowed, r.hits])).toEqual(main.map((r) => [r.allowed, r.hits]));
    expect(direct.map((r) => r.hits)).toEqual(Array.from({ length: 30 }, (_, i) => Math.floor(i / 3) + 1));
  });

  it('reads hash fields like the main client, a missing field or hash as null', async () => {
    await client.hset('h:lean', 'a', 'é1', 'b', '');
    expect(await scripts.hgetHot('h:lean', 'a')).toBe('é1');
    expect(await scripts.hgetHot('h:lean', 'missing')).toBeNull();
    expect(await scripts.hmgetHot('h:lean', ['b', 'missing', 'a'])).toEqual(await client.hmget('h:lean', 'b', 'missing', 'a'));
    expect(await scripts.hmgetHot('h:none', ['a'])).toEqual([null]);
  });

  it('sends the source when Redis does not know the script, which then knows it', async () => {
    await client.script('FLUSH');
    expect(await rateLimit('rl:flushed')).toEqual({ allowed: true, hits: 1, waitMs: expect.any(Number) });
    expect(await client.script('EXISTS', RATE_LIMIT_SHA)).toEqual([1]);
  });

  it('rejects with the error Redis answers', async () => {
    await client.set('rl:not-a-zset', 'x');
    await expect(rateLimit('rl:not-a-zset')).rejects.toThrow(/WRONGTYPE/);
  });

  it('fails a call Redis does not answer in time, then works again', async () => {
    const impatient = new ScriptConnection(redis.url, 200);
    await impatient.connect();
    const source = { lua: 'return 1', sha: createHash('sha1').update('return 1').digest('hex') };
    const bystander = new Redis(redis.url);
    await bystander.ping();
    // Writes (a script counts as one) wait while Redis is paused; a pause of a minute, 300 times the timeout,
    // is lifted by the test once the call has failed.
    await client.client('PAUSE', 60_000, 'WRITE');
    // The bystander's write is answered only when the pause is over: the call must fail before that.
    const pauseOver = bystander.set('bystander', '1').then(() => 'pause over');
    try {
      const first = await Promise.race([
        impatient.evalsha(source, [], []).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
        pauseOver,
      ]);
      expect(first).toBe('Command timed out');
    } finally {
      await client.client('UNPAUSE');
    }
    await pauseOver;
    bystander.disconnect();
    await eventually('the script answering again', async () =>
      impatient.evalsha(source, [], []).then(
        (r) => r === 1,
        () => false,
      ),
    );
    await impatient.quit();
  });

  it('fails a call in flight when the connection drops, without sending it again, as one that was sent', async () => {
    // Held until the test has found and killed its connection, however long that takes.
    await client.client('PAUSE', 60_000, 'WRITE');
    // Its outcome is taken at once: the drop may reject it before the test gets to look at it.
    const outcome = rateLimit('rl:dropped').then(
      () => 'answered',
      (error: Error) => error,
    );
    try {
      // The paused call shows as a client blocked (flags=b) in EVALSHA.
      const held = async () => ((await client.client('LIST')) as string).split('\n').find((l) => /flags=b .*cmd=evalsha/.test(l));
      await eventually('a connection held', async () => (await held()) !== undefined);
      await client.client('KILL', 'ID', /\bid=(\d+)/.exec((await held())!)![1]!);
      // Told apart from a call never sent: this one may have run.
      expect(await outcome).toBeInstanceOf(ConnectionClosedError);
      expect(await outcome).toMatchObject({ message: 'Connection is closed.', sent: true });
    } finally {
      await client.client('UNPAUSE');
    }
    await eventually('scripts after the drop', async () =>
      rateLimit('rl:after-drop').then(
        () => true,
        () => false,
      ),
    );
    expect(await client.zcard('rl:dropped')).toBe(0);
  });

  it('fails at once while Redis is away, as a call never sent, then reconnects by itself', async () => {
    await redis.stop();
    // The connection learns of the close from its socket: a call it wrote before that may have run (sent). Once
    // it knows, each call fails at once, never sent: sending it elsewhere (a Redis Cluster's promoted replica)
    // could not run it twice.
    const neverSent = (error: unknown) => error instanceof ConnectionClosedError && error.sent === false;
    await eventually('a call refused as never sent', () => rateLimit('rl:away').then(() => false, neverSent));
    await expect(rateLimit('rl:away')).rejects.toMatchObject({ message: 'Connection is closed.', sent: false });
    await redis.start();
    await eventually('scripts back', async () =>
      rateLimit('rl:back').then(
        () => true,
        () => false,
      ),
    );
  });
});
