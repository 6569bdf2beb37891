import { describe, expect, it } from 'vitest';
import { json, type Route } from '../../src/platform/http/types.js';

const doc = { summary: 'test' };

describe('route types', () => {
  it('give an authenticated handler req.auth and a public one none (checked by npm run typecheck)', () => {
    const authed: Route = { method: 'GET', path: '/mine', auth: true, doc, handler: (req) => json(200, { user: req.auth.userId }) };
    const open: Route = {
      method: 'GET',
      path: '/open',
      doc,
      // @ts-expect-error a public route's handler cannot read auth
      handler: (req) => json(200, { user: req.auth }),
    };
    const explicit: Route = {
      method: 'GET',
      path: '/open',
      auth: false,
      doc,
      // @ts-expect-error not even when the route says auth: false
      handler: (req) => json(200, { user: req.auth?.userId }),
    };
    expect([authed.auth, open.auth, explicit.auth]).toEqual([true, undefined, false]);
  });
});
