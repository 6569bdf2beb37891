import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { keys } from '../../src/platform/redis/keys.js';
import { EventSocket } from '../support/event-socket.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';

const MESSAGES = 10_000;
/**
 * What "costs no more than a few milliseconds" means here: the CPU Redis's main thread spends on the whole
 * unmatch, read from Redis itself (INFO cpu), so time it spent waiting for a core on a busy machine does not
 * count (its slow log, wall-clock, showed calls of constant work at 7 ms with one core kept busy). The one
 * time bound in the suite, and far from both sides: before, one call took 31–57 ms here; now every call of
 * the unmatch is constant work of about 0.1 ms.
 */
const SLOW_MICROS = 5_000;

/** The CPU time Redis's main thread has used, in µs. */
async function mainThreadCpuMicros(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return Math.round((field('used_cpu_user_main_thread') + field('used_cpu_sys_main_thread')) * 1e6);
}
let stack: Awaited<ReturnType<typeof startStack>>;
const sockets: EventSocket[] = [];
beforeAll(async () => {
  stack = await startStack({ THREAD_MAX_MESSAGES: MESSAGES * 2 });
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await stack?.stop();
});

describe('unmatching a long thread', () => {
  it(`holds Redis's CPU no longer than ${SLOW_MICROS / 1000} ms for the whole unmatch with ${MESSAGES.toLocaleString('en')} messages, and the thread is gone for both users and spectators at once`, async () => {
    const [a, b] = (await seedAccounts(stack.app, 'agent', 2)) as [SeededAccount, SeededAccount];
    await stack.app.swipeService.swipe({ pool: 'agent', userId: a.user_id }, b.user_id, 'like');
    const matchId = (await stack.app.swipeService.swipe({ pool: 'agent', userId: b.user_id }, a.user_id, 'like')).match!.id;
    // Sent through the service (past the HTTP rate limit), each with its events appended to three streams.
    for (let i = 0; i < MESSAGES; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, MESSAGES - i) }, (_, j) => {
          const from = (i + j) % 2 ? b : a;
          return stack.app.messageService.send({ pool: 'agent', userId: from.user_id }, matchId, `long thread ${i + j}`);
        }),
      );
    }
    expect(await stack.app.redis.xlen(keys.thread('agent', matchId))).toBe(MESSAGES);

    const redis = stack.app.redis as Redis;
    await redis.config('SET', 'slowlog-log-slower-than', String(SLOW_MICROS));
    await redis.slowlog('RESET');
    // The unmatch answers once its outbox steps are done: every call it made was served by then.
    const before = await mainThreadCpuMicros(redis);
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: a.token })).status).toBe(204);
    const spent = (await mainThreadCpuMicros(redis)) - before;
    const slow = (await redis.slowlog('GET', 128)) as Array<[number, number, number, string[]]>;
    await redis.config('SET', 'slowlog-log-slower-than', '10000');
    const slowCalls = slow.map(([, , micros, command]) => `${micros} µs: ${command.slice(0, 4).join(' ')}`);
    expect(spent, `Redis CPU for the unmatch (calls over ${SLOW_MICROS} µs of wall-clock: ${slowCalls.join('; ') || 'none'})`).toBeLessThan(SLOW_MICROS);

    // At once: the thread is gone, and no replay serves a message of the match.
    expect(await stack.app.redis.exists(keys.thread('agent', matchId))).toBe(0);
    for (const [path, token] of [
      ['/api/v1/ws?since=0', a.token],
      ['/api/v1/ws?since=0', b.token],
      ['/api/v1/spectator/stream?since=0', undefined],
    ] as const) {
      const socket = await EventSocket.open(stack.baseUrl, path, token ? { token } : {});
      sockets.push(socket);
      await socket.waitForFrame((f) => f.type === 'match.ended' && (f.data.match_id === matchId || f.data.match?.id === matchId));
      expect(socket.frames.filter((f) => f.type === 'message.created' && (f.data.match_id ?? f.data.message?.match_id) === matchId)).toEqual([]);
    }
  }, 180_000);
});
