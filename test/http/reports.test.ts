import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchedPair, sendMessage } from '../support/matched-pair.js';
import { seedAccounts } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';

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
const openReports = async (pool: string) => (await stack.api.get(`/api/v1/admin/reports?pool=${pool}&limit=100`, { token: ADMIN_TOKEN })).body.items as Array<Record<string, unknown>>;

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
    expect(filed).toMatchObject({ reporter_id: a.user_id, reported_id: b.user_id, reason: 'spam', match_id: matchId, message_id: message.id, text: 'Keeps selling.' });
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
});
