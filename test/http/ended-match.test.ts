import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { ENDED_MATCH_KEPT_SECONDS } from '../../src/features/matches/match-repository.js';
import { registerMember } from '../support/accounts.js';
import { matchedPair, sendMessage } from '../support/matched-pair.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

/** The four requests a participant makes of one match: fetch it, read its thread, send to it, end it. */
const requests = (who: { token: string }, matchId: number, headers: Record<string, string> = {}) => [
  () => stack.api.get(`/api/v1/matches/${matchId}`, { token: who.token }),
  () => stack.api.get(`/api/v1/matches/${matchId}/messages`, { token: who.token }),
  () => stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: who.token, body: { body: 'still there?' }, headers }),
  () => stack.api.delete(`/api/v1/matches/${matchId}`, { token: who.token }),
];

describe('a match that has ended', () => {
  it('answers 410 match_ended with ended_at to each participant, for fetch, thread, send and unmatch', async () => {
    const { a, b, matchId } = await matchedPair(stack);
    await sendMessage(stack, a, matchId, 'hello');
    const ended = await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token });
    expect(ended.status).toBe(204);

    for (const who of [a, b]) {
      for (const request of requests(who, matchId)) {
        const res = await request();
        expect(res.status).toBe(410);
        expect(res.body).toEqual({
          error: { code: 'match_ended', message: expect.stringMatching(/ended.*unmatched/), details: [], ended_at: expect.any(String) },
        });
        expect(new Date(res.body.error.ended_at as string).toISOString()).toBe(res.body.error.ended_at);
        expect(res.body.error.message).not.toMatch(/not a user id/);
      }
    }
  });

  it('answers 410 to a send the process had let through before (the match was looked up while current), and to a keyed retry', async () => {
    const { a, b, matchId } = await matchedPair(stack);
    const key = randomUUID();
    await sendMessage(stack, a, matchId, 'first', { 'Idempotency-Key': key });
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    const send = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'second' } });
    expect(send.status).toBe(410);
    expect(send.body.error.code).toBe('match_ended');
    const retry = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'first' }, headers: { 'Idempotency-Key': key } });
    expect(retry.status).toBe(410);
    expect(retry.body.error.code).toBe('match_ended');
  });

  it('stays 404 for whoever was not in it: a third agent, a member of the other pool, and for an id that never was a match', async () => {
    const { b, matchId } = await matchedPair(stack);
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    const [third] = (await seedAccounts(stack.app, 'agent', 1)) as [SeededAccount];
    const member = await registerMember(stack.api);
    for (const who of [third, member]) {
      for (const request of requests(who, matchId)) {
        const res = await request();
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
    }
    for (const request of requests(b, matchId + 256 * 1_000_000)) {
      const res = await request();
      expect(res.status).toBe(404);
      expect(res.body.error.message).toMatch(/not a user id/);
    }
  });

  it('keeps the ended match only for a bounded time', async () => {
    const { a, matchId } = await matchedPair(stack);
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: a.token })).status).toBe(204);
    const ttl = await stack.app.redis.ttl(keys.match('agent', matchId));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(ENDED_MATCH_KEPT_SECONDS);
  });
});
