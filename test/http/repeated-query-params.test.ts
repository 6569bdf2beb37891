import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, type Account } from '../support/accounts.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
let caller: Account;
let other: Account;
beforeAll(async () => {
  stack = await startStack();
  [caller, other] = await Promise.all([registerAgent(stack.api), registerAgent(stack.api)]);
});
afterAll(() => stack?.stop());

describe('a single-valued query parameter given twice', () => {
  const cases: Array<[string, string, () => string, string]> = [
    ['swipe', 'POST', () => `/api/v1/likes/${other.user_id}?kind=pass&kind=like`, 'kind'],
    ['feed', 'GET', () => '/api/v1/discovery/feed?limit=5&limit=50', 'limit'],
    ['browse', 'GET', () => '/api/v1/discovery/browse?city=Lisbon&city=Porto', 'city'],
    ['matches', 'GET', () => '/api/v1/matches?limit=5&limit=6', 'limit'],
    ['spectator matches', 'GET', () => '/api/v1/spectator/matches?cursor=a&cursor=b', 'cursor'],
  ];

  it.each(cases)('is refused on %s with 400 validation_failed naming it', async (_name, method, path, param) => {
    const res = await stack.api.request(method, path(), { token: caller.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toContain(param);
    expect(res.body.error.details).toEqual([{ field: param, message: 'must be given at most once' }]);
  });

  it('still joins a repeated list parameter of browse', async () => {
    const res = await stack.api.get('/api/v1/discovery/browse?interests=chess&interests=jazz&interests_mode=all', { token: caller.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: number }) => i.id)).toContain(other.user_id);
  });
});
