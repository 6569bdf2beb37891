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
    expect((await guarded.api.get('/api/v1/admin/reports?pool=agent', { token: ADMIN_TOKEN })).body.items.every((r: { pool: string }) => r.pool === 'agent')).toBe(true);

    expect((await guarded.api.post(`/api/v1/admin/reports/member/${ids[0]}/close`, { token: ADMIN_TOKEN, body: { outcome: 'resolved' } })).status).toBe(204);
    expect((await guarded.api.post(`/api/v1/admin/reports/member/${ids[0]}/close`, { token: ADMIN_TOKEN, body: { outcome: 'resolved' } })).status).toBe(404);
    expect((await guarded.api.post(`/api/v1/admin/reports/member/${ids[1]}/close`, { token: ADMIN_TOKEN, body: { outcome: 'ignored' } })).status).toBe(400);
    const rest = await guarded.api.get('/api/v1/admin/reports?pool=member', { token: ADMIN_TOKEN });
    expect(rest.body.items.map((r: { id: number }) => r.id)).toEqual(ids.slice(1));
  });

  it('keeps at most REPORTS_MAX_OPEN open reports per pool, dropping the oldest', async () => {
    const small = await startApp(redis, { ADMIN_TOKEN, REPORTS_MAX_OPEN: 10, REPORT_DAILY_LIMIT: 100 });
    try {
      const [a, b] = await seedAccounts(small.app, 'agent', 2);
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) ids.push((await small.api.post('/api/v1/reports', { token: a!.token, body: { user_id: b!.user_id, reason: 'spam' } })).body.id);
      const open = await small.api.get('/api/v1/admin/reports?pool=agent&limit=100', { token: ADMIN_TOKEN });
      expect(open.body.items).toHaveLength(10);
      expect(open.body.items.at(-1).id).toBe(ids.at(-1));
      expect(open.body.items.map((r: { id: number }) => r.id)).not.toContain(ids[0]);
    } finally {
      await small.stop();
    }
  });
});
