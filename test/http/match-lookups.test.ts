import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { matchedPair, sendMessage } from '../support/matched-pair.js';
import { RedisMonitor } from '../support/redis-monitor.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
let monitor: RedisMonitor | undefined;
const seen: string[][] = [];

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  monitor?.disconnect();
  await stack?.stop();
});

/** The reads of a match's newest message (`ZRANGE <thread> -1 -1`), among the calls Redis saw while `act` ran. */
async function newestMessageReads(threadKey: string, act: () => Promise<unknown>): Promise<string[][]> {
  monitor ??= await RedisMonitor.open(stack.redis.url!);
  monitor.removeAllListeners('monitor');
  seen.length = 0;
  monitor.on('monitor', (_time: string, args: string[]) => seen.push(args.map(String)));
  await act();
  // MONITOR reports in order on its own connection: a marker written last arrives last.
  const marker = `am:test:marker:${Date.now()}`;
  await stack.app.redis.set(marker, '1');
  await expect.poll(() => seen.some((args) => args.includes(marker))).toBe(true);
  return seen.filter((args) => args[0]!.toLowerCase() === 'xrevrange' && args[1] === threadKey && args[2] === '+' && args[5] === '1');
}

describe('match look-ups', () => {
  it('read the newest message only where the match is shown with it, not before a message is sent or a page of messages read', async () => {
    const { a, matchId } = await matchedPair(stack);
    const threadKey = keys.thread('agent', matchId);
    await sendMessage(stack, a, matchId, 'first');
    expect(await newestMessageReads(threadKey, () => sendMessage(stack, a, matchId, 'second'))).toEqual([]);
    expect(await newestMessageReads(threadKey, () => stack.api.get(`/api/v1/matches/${matchId}/messages`, { token: a.token }))).toEqual([]);
    const shown = await stack.api.get(`/api/v1/matches/${matchId}`, { token: a.token });
    expect(shown.body.last_message.body).toBe('second');
    expect(await newestMessageReads(threadKey, () => stack.api.get(`/api/v1/matches/${matchId}`, { token: a.token }))).toHaveLength(1);
  });
});
