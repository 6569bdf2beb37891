import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { matchedPair, sendMessage } from '../support/matched-pair.js';
import { seedAccounts } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';
import { whereStored } from '../support/stored-values.js';
import { keys } from '../../src/platform/redis/keys.js';

const ADMIN_TOKEN = 'operators-only-admin-secret';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN, REPORT_DAILY_LIMIT: 3 });
});
afterAll(async () => {
  await stack?.stop();
});

/** An account of `pool` whose id names no account of `other` (each pool counts its own ids). */
async function accountOnlyIn(pool: 'agent' | 'member', other: 'agent' | 'member') {
  for (;;) {
    const [account] = await seedAccounts(stack.app, pool, 1);
    if (!(await stack.app.users.exists(other, account!.user_id))) return account!;
  }
}

const report = (token: string, body: unknown) => stack.api.post('/api/v1/reports', { token, body });
const openReports = async (pool: string) =>
  (await stack.api.get(`/api/v1/admin/reports?pool=${pool}&limit=100`, { token: ADMIN_TOKEN })).body.items as Array<Record<string, unknown>>;

describe('POST /api/v1/reports', () => {
  it('files a report with a snapshot of the reported message and profile, and tells the reported account nothing', async () => {
    const { a, b, matchId } = await matchedPair(stack);
    const message = await sendMessage(stack, b, matchId, 'buy my crypto course now');
    const before = (await stack.api.get('/api/v1/events?limit=100', { token: b.token })).body;
    const res = await report(a.token, { user_id: b.user_id, reason: 'spam', match_id: matchId, message_id: message.id, text: 'Keeps selling.' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), status: 'open' });
    await stack.api.patch('/api/v1/me', { token: b.token, body: { bio: 'changed after the report' } });
    const filed = (await openReports('agent')).find((r) => r.id === res.body.id);
    expect(filed).toMatchObject({
      reporter_id: a.user_id,
      reported_id: b.user_id,
      reason: 'spam',
      match_id: matchId,
      message_id: message.id,
      text: 'Keeps selling.',
    });
    expect((filed!.content as { message: { body: string } }).message.body).toBe('buy my crypto course now');
    expect((filed!.content as { bio: string }).bio).not.toBe('changed after the report');
    const after = (await stack.api.get('/api/v1/events?limit=100', { token: b.token })).body;
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('refuses an unknown reason, a missing user, oversized text, a self-report and a message without its match with 400', async () => {
    const [a, b] = await seedAccounts(stack.app, 'agent', 2);
    for (const body of [
      { user_id: b!.user_id, reason: 'boring' },
      { reason: 'spam' },
      { user_id: b!.user_id, reason: 'other', text: 'x'.repeat(1_001) },
      { user_id: a!.user_id, reason: 'spam' },
      { user_id: b!.user_id, reason: 'spam', message_id: 1 },
    ]) {
      const res = await report(a!.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('never reaches the other pool: its accounts answer 404, and a shared id names the caller pool account', async () => {
    const [agent] = await seedAccounts(stack.app, 'agent', 1);
    const member = await accountOnlyIn('member', 'agent');
    expect(await stack.app.users.exists('member', agent!.user_id)).toBe(true);
    expect((await report(agent!.token, { user_id: member.user_id, reason: 'spam' })).status).toBe(404);
    const sameId = await report(member.token, { user_id: agent!.user_id, reason: 'spam' });
    expect(sameId.status).toBe(201);
    const filed = (await openReports('member')).find((r) => r.id === sameId.body.id)!;
    expect((filed.content as { display_name: string }).display_name).toMatch(/^Seeded member /);
    expect(filed.pool).toBe('member');
    expect((await openReports('agent')).every((r) => r.pool === 'agent')).toBe(true);
    const onlyAgent = await accountOnlyIn('agent', 'member');
    expect((await report(member.token, { user_id: onlyAgent.user_id, reason: 'spam' })).status).toBe(404);
  });

  it('answers 404 for a match or message that is not between the two', async () => {
    const [other] = await seedAccounts(stack.app, 'agent', 1);
    const { a, b, matchId } = await matchedPair(stack);
    expect((await report(other!.token, { user_id: b.user_id, reason: 'spam', match_id: matchId })).status).toBe(404);
    const own = await sendMessage(stack, a, matchId, 'my own words');
    expect((await report(a.token, { user_id: b.user_id, reason: 'spam', match_id: matchId, message_id: own.id })).status).toBe(404);
    expect((await report(a.token, { user_id: b.user_id, reason: 'spam', match_id: matchId, message_id: own.id + 1000 })).status).toBe(404);
    expect((await report(a.token, { user_id: b.user_id, reason: 'spam', match_id: matchId })).status).toBe(201);
  });

  it('caps reports per account per day with 429 and Retry-After', async () => {
    const [a, b] = await seedAccounts(stack.app, 'member', 2);
    for (let i = 0; i < 3; i++) expect((await report(a!.token, { user_id: b!.user_id, reason: 'harassment' })).status).toBe(201);
    const res = await report(a!.token, { user_id: b!.user_id, reason: 'harassment' });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers a report naming a suspended account exactly as one naming no account', async () => {
    const [a, b] = await seedAccounts(stack.app, 'member', 2);
    const suspended = await stack.api.post(`/api/v1/admin/accounts/member/${b!.user_id}/suspend`, { token: ADMIN_TOKEN, body: {} });
    expect(suspended.status).toBe(200);
    const unknownId = 2_000_000_000;
    expect(await stack.app.users.exists('member', unknownId)).toBe(false);
    const toSuspended = await report(a!.token, { user_id: b!.user_id, reason: 'harassment' });
    const toUnknown = await report(a!.token, { user_id: unknownId, reason: 'harassment' });
    expect(toSuspended.status).toBe(404);
    expect(toSuspended.body).toEqual(toUnknown.body);
  });

  it("takes an ended match's messages: an unmatch does not take them out of a report, which shows them as they were", async () => {
    const { a, b, matchId } = await matchedPair(stack);
    const abuse = await sendMessage(stack, b, matchId, 'an insult sent just before unmatching');
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    // The thread is closed to both users as before.
    expect((await stack.api.get(`/api/v1/matches/${matchId}/messages`, { token: a.token })).status).toBe(410);
    const res = await report(a.token, { user_id: b.user_id, reason: 'harassment', match_id: matchId, message_id: abuse.id });
    expect(res.status).toBe(201);
    const filed = (await openReports('agent')).find((r) => r.id === res.body.id)!;
    expect(filed).toMatchObject({ match_id: matchId, message_id: abuse.id });
    expect((filed.content as { message: { body: string } }).message.body).toBe('an insult sent just before unmatching');
    // Kept for a bounded time only.
    const ttl = await stack.app.redis.ttl(keys.endedThread('agent', matchId));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(stack.app.config.REPORT_EVIDENCE_HOURS * 3_600);
  });

  it("erases an ended match's kept messages when either account leaves", async () => {
    const unique = Math.random().toString(36).slice(2, 10);
    for (const leaver of ['reported', 'reporter'] as const) {
      const a = await registerAgent(stack.api);
      const b = await registerAgent(stack.api);
      await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
      const matchId = (await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id as number;
      const said = `kept until leaving ${leaver} ${unique}`;
      await sendMessage(stack, b, matchId, said);
      expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: a.token })).status).toBe(204);
      expect(Object.keys(await whereStored(stack.app.redis, said))).toEqual([keys.endedThread('agent', matchId)]);
      const leaving = leaver === 'reported' ? b : a;
      expect((await stack.api.delete('/api/v1/me', { token: leaving.token, body: { password: leaving.password } })).status).toBe(204);
      expect(await whereStored(stack.app.redis, said), leaver).toEqual({});
    }
  });
});
