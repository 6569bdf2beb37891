import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, type Account } from '../support/accounts.js';
import { eventually } from '../support/eventually.js';
import { startStack } from '../support/stack.js';
import { createHook } from '../support/webhooks.js';
import { receiversPerTest } from '../support/webhook-receiver.js';

// Few delivery workers and the longest timeout: pings that held workers would hold them for the whole test.
const SETTINGS = { WEBHOOK_ALLOW_PRIVATE: true, WEBHOOK_CONCURRENCY: 2, WEBHOOK_TIMEOUT_MS: 60_000, WEBHOOK_TEST_RATE_LIMIT: 100 };

let stack: Awaited<ReturnType<typeof startStack>>;
const receiver = receiversPerTest();
beforeAll(async () => {
  stack = await startStack(SETTINGS);
});
afterAll(async () => {
  await stack?.stop();
});

/** A webhook of `account` for `url`; its id. */
const hookFor = async (account: Account, url: string) => (await createHook(stack.api, account, url)).id;

const ping = (account: Account, hookId: string) => stack.api.post(`/api/v1/webhooks/${hookId}/test`, { token: account.token });
const deliveries = async (account: Account, hookId: string) =>
  (await stack.api.get(`/api/v1/webhooks/${hookId}/deliveries`, { token: account.token })).body.items as unknown[];

describe('webhook test pings', () => {
  it("to a receiver that never answers hold up no other account's deliveries", async () => {
    const [pinger, other, liker] = [await registerAgent(stack.api), await registerAgent(stack.api), await registerAgent(stack.api)];
    const silent = await receiver(() => ({ hang: true }));
    const prompt = await receiver();
    // More pinged webhooks than there are delivery workers.
    const pinged = [];
    for (let i = 0; i < SETTINGS.WEBHOOK_CONCURRENCY + 2; i++) pinged.push(await hookFor(pinger, `${silent.url}?hook=${i}`));
    await hookFor(other, prompt.url);

    for (const hookId of pinged) expect((await ping(pinger, hookId)).status).toBe(202);
    await eventually('pings at the silent receiver', () => silent.received.length >= SETTINGS.WEBHOOK_CONCURRENCY);

    expect((await stack.api.post(`/api/v1/likes/${other.user_id}?kind=super_like`, { token: liker.token })).status).toBe(200);
    const [delivery] = await eventually("the other account's delivery", () => prompt.received.length === 1 && prompt.received);
    expect(delivery!.frame.type).toBe('like.received');
    // Every ping reached the receiver and is still waiting for its answer: none has finished, so none is in
    // its webhook's log yet.
    await eventually('every ping at the silent receiver', () => silent.received.length === pinged.length);
    for (const hookId of pinged) expect(await deliveries(pinger, hookId)).toEqual([]);
  });

  it('go one at a time per webhook: another while one waits for its answer is a 429 with Retry-After', async () => {
    const owner = await registerAgent(stack.api);
    const silent = await receiver(() => ({ hang: true }));
    const prompt = await receiver();
    const [waiting, answered] = [await hookFor(owner, silent.url), await hookFor(owner, prompt.url)];

    expect((await ping(owner, waiting)).status).toBe(202);
    await eventually('the ping at the silent receiver', () => silent.received.length === 1);
    const refused = await ping(owner, waiting);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/one at a time/) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(SETTINGS.WEBHOOK_TIMEOUT_MS / 1000 + 1);
    expect(refused.body.error.retry_after_seconds).toBe(retryAfter);
    expect(silent.received).toHaveLength(1);

    // Another webhook of the account pings meanwhile, and once a ping is answered the next one may go.
    for (let i = 1; i <= 2; i++) {
      expect((await ping(owner, answered)).status).toBe(202);
      await eventually(`ping ${i} answered and logged`, async () => (await deliveries(owner, answered)).length === i);
    }
    expect(prompt.received.map((r) => r.frame.type)).toEqual(['webhook.ping', 'webhook.ping']);
  });
});
