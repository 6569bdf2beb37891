import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../support/seeded-accounts.js';
import { startApp, startTestRedis, type TestApp } from '../support/stack.js';

const ADMIN_TOKEN = 'operators-only-admin-secret';

let redis: Awaited<ReturnType<typeof startTestRedis>>;
let guarded: TestApp;
let unset: TestApp;
beforeAll(async () => {
  redis = await startTestRedis();
  guarded = await startApp(redis, { ADMIN_TOKEN });
  unset = await startApp(redis);
});
afterAll(async () => {
  await guarded?.stop();
  await unset?.stop();
  await redis?.cleanup();
});

describe('the operators API', () => {
  it('answers 404 as if absent without ADMIN_TOKEN set, and without the token or with another one', async () => {
    expect((await unset.api.get('/api/v1/admin/reports?pool=agent', { token: ADMIN_TOKEN })).status).toBe(404);
    for (const token of [undefined, 'not-the-admin-token', `${ADMIN_TOKEN}x`]) {
      const res = await guarded.api.get('/api/v1/admin/reports?pool=agent', { token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect((await guarded.api.post('/api/v1/admin/reports/agent/1/close', { token, body: { outcome: 'dismissed' } })).status).toBe(404);
    }
  });

  it('lists open reports oldest first, by pool, in pages, and closes them', async () => {
    const [a, b] = await seedAccounts(guarded.app, 'member', 2);
    const ids: number[] = [];
    for (const reason of ['spam', 'other', 'impersonation']) {
      const res = await guarded.api.post('/api/v1/reports', { token: a!.token, body: { user_id: b!.user_id, reason } });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const first = await guarded.api.get('/api/v1/admin/reports?pool=member&limit=2', { token: ADMIN_TOKEN });
    expect(first.status).toBe(200);
    expect(first.body.items.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 2));
    expect(first.body.items[0].content).toMatchObject({ display_name: expect.any(String), bio: expect.any(String), message: null });
    const second = await guarded.api.get(`/api/v1/admin/reports?pool=member&limit=2&cursor=${first.body.next_cursor}`, { token: ADMIN_TOKEN });
    expect(second.body.items.map((r: { id: number }) => r.id)).toEqual(ids.slice(2));
    expect(
      (await guarded.api.get('/api/v1/admin/reports?pool=agent', { token: ADMIN_TOKEN })).body.items.every((r: { pool: string }) => r.pool === 'agent'),
    ).toBe(true);

    expect((await guarded.api.post(`/api/v1/admin/reports/member/${ids[0]}/close`, { token: ADMIN_TOKEN, body: { outcome: 'resolved' } })).status).toBe(204);
    expect((await guarded.api.post(`/api/v1/admin/reports/member/${ids[0]}/close`, { token: ADMIN_TOKEN, body: { outcome: 'resolved' } })).status).toBe(404);
    expect((await guarded.api.post(`/api/v1/admin/reports/member/${ids[1]}/close`, { token: ADMIN_TOKEN, body: { outcome: 'ignored' } })).status).toBe(400);
    const rest = await guarded.api.get('/api/v1/admin/reports?pool=member', { token: ADMIN_TOKEN });
    expect(rest.body.items.map((r: { id: number }) => r.id)).toEqual(ids.slice(1));
  });

  it("caps open reports per reporter and per pool, refusing past either: one account's reports never push out another's", async () => {
    const small = await startApp(redis, { ADMIN_TOKEN, REPORTS_MAX_OPEN: 10, REPORTS_MAX_OPEN_PER_REPORTER: 3, REPORT_DAILY_LIMIT: 100 });
    try {
      const [spammer, victim, reported, other1, other2, late] = await seedAccounts(small.app, 'agent', 6);
      const file = (from: typeof spammer, reason = 'spam') =>
        small.api.post('/api/v1/reports', { token: from!.token, body: { user_id: reported!.user_id, reason } });
      const harassment = await file(victim, 'harassment');
      expect(harassment.status).toBe(201);
      const junk: number[] = [];
      for (let i = 0; i < 3; i++) junk.push((await file(spammer)).body.id);
      const refused = await file(spammer);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'too_many_open_reports', scope: 'reporter', details: [] });
      expect(refused.body.error.message).toMatch(/already have 3 reports waiting.*not filed.*once they have closed one/);
      // The pool fills up (10), and the next report is refused rather than dropping any open one.
      for (const from of [other1, other2]) for (let i = 0; i < 3; i++) expect((await file(from)).status).toBe(201);
      const full = await file(late);
      expect(full.status).toBe(409);
      expect(full.body.error).toMatchObject({ code: 'too_many_open_reports', scope: 'pool' });
      const open = (await small.api.get('/api/v1/admin/reports?pool=agent&limit=100', { token: ADMIN_TOKEN })).body.items as Array<{ id: number }>;
      expect(open).toHaveLength(10);
      expect(open.map((r) => r.id)).toContain(harassment.body.id);
      // Closing one of the spammer's reports lets it (and only it, the pool being full again) report once more.
      expect((await small.api.post(`/api/v1/admin/reports/agent/${junk[0]}/close`, { token: ADMIN_TOKEN, body: { outcome: 'dismissed' } })).status).toBe(204);
      expect((await file(spammer)).status).toBe(201);
      expect((await file(spammer)).status).toBe(409);
    } finally {
      await small.stop();
    }
  });
});
