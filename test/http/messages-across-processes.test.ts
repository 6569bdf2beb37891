import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { startTwoApps, type TestApp } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;

beforeAll(async () => {
  stack = await startTwoApps();
  ({ one, two } = stack);
});
afterAll(async () => {
  await stack?.stop();
});

describe('messages sent through one process to a match that another process ended', () => {
  it('answer 410 match_ended once the match is ended elsewhere, though the first process knew the match', async () => {
    const [a, b] = await Promise.all([registerAgent(one.api), registerAgent(one.api)]);
    await one.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    const liked = await one.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
    const matchId = liked.body.match.id as number;
    const send = (body: string) => one.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body } });

    expect((await send('hello')).status).toBe(201);
    expect((await two.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    for (const body of ['still there?', 'hello?']) {
      const refused = await send(body);
      expect(refused.status).toBe(410);
      expect(refused.body.error.code).toBe('match_ended');
    }
    const thread = await one.api.get(`/api/v1/matches/${matchId}/messages`, { token: a.token });
    expect(thread.status).toBe(410);
  });

  it('answer 404 to an account that is not in the match, however often the match was written to', async () => {
    const [a, b, c] = await Promise.all([registerAgent(one.api), registerAgent(one.api), registerAgent(two.api)]);
    await one.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    const matchId = (await one.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match.id as number;
    expect((await one.api.post(`/api/v1/matches/${matchId}/messages`, { token: a.token, body: { body: 'hi' } })).status).toBe(201);
    expect((await one.api.post(`/api/v1/matches/${matchId}/messages`, { token: c.token, body: { body: 'me too' } })).status).toBe(404);
  });
});
