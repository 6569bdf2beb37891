import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookSender } from '../../src/jobs/webhook-sender.js';
import { isPrivateAddress } from '../../src/services/webhook-destinations.js';
import { registerAgent } from '../support/accounts.js';
import { startStack } from '../support/stack.js';
import { receiversPerTest } from '../support/webhook-receiver.js';

// Private destinations refused, as in production (WEBHOOK_ALLOW_PRIVATE unset).
let stack: Awaited<ReturnType<typeof startStack>>;
const receiver = receiversPerTest();
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function listen(handler: Parameters<typeof createServer>[1]) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A sender whose deadline a busy machine cannot reach by accident, unless a test gives it a short one to reach. */
const sender = (allowPrivate: boolean, timeoutMs = 10_000) => new WebhookSender({ timeoutMs, maxResponseBytes: 1_024, allowPrivate });

describe('webhook destinations (SSRF)', () => {
  it('refuses private, loopback, link-local and unspecified addresses when a webhook is saved', async () => {
    const ada = await registerAgent(stack.api);
    const r = await receiver();
    const refused = [
      r.url,
      `http://localhost:${r.port}/hooks`,
      'http://10.1.2.3/hooks',
      'http://172.20.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/',
    ];
    for (const url of refused) {
      const res = await stack.api.post('/api/v1/webhooks', { token: ada.token, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details, url).toEqual([{ field: 'url', message: expect.stringMatching(/private|loopback|link-local/) }]);
    }
    const changed = await stack.api.get('/api/v1/webhooks', { token: ada.token });
    expect(changed.body.items).toEqual([]);
    expect(r.received).toEqual([]);
  });

  it('checks the resolved address again at delivery time: a name or literal that reaches a private address is never connected to', async () => {
    const r = await receiver();
    const guarded = sender(false);
    const byName = await guarded.send(`http://localhost:${r.port}/hooks`, ['whsec_AAAA'], 'evt-1', '{}');
    expect(byName.status).toBeUndefined();
    expect(byName.error).toMatch(/private, loopback or link-local/);
    const byLiteral = await guarded.send(r.url, ['whsec_AAAA'], 'evt-2', '{}');
    expect(byLiteral.error).toMatch(/refused/);
    expect(r.received).toEqual([]);
    // The same delivery, with private destinations allowed, arrives: the refusal above is the guard's.
    const allowed = sender(true);
    expect((await allowed.send(`http://localhost:${r.port}/hooks`, ['whsec_AAAA'], 'evt-3', '{}')).status).toBe(200);
    expect(r.received).toHaveLength(1);
    guarded.close();
    allowed.close();
  });

  it('follows no redirect, cuts a long answer off and gives up on a slow one within the timeout', async () => {
    const target = await receiver();
    const redirecting = await receiver(() => ({ status: 307, headers: { location: target.url } }));
    const s = sender(true);
    expect(await s.send(redirecting.url, ['whsec_AAAA'], 'evt-1', '{}')).toMatchObject({ status: 307 });
    expect(target.received).toEqual([]);

    // A long answer that never ends: read up to the cap (1 KiB here), then the status counts, long before the timeout.
    const flooding = await listen((_req, res) => {
      res.writeHead(200);
      res.write('x'.repeat(64 * 1024));
    });
    const cut = await s.send(flooding.url, ['whsec_AAAA'], 'evt-2', '{}');
    expect(cut).toMatchObject({ status: 200 });
    expect(cut.error).toBeUndefined();

    // Headers at once, then a body that never ends (under the cap): the deadline still holds.
    const dripping = await listen((_req, res) => {
      res.writeHead(200);
      res.write('a');
    });
    const impatient = sender(true, 400);
    const slow = await impatient.send(dripping.url, ['whsec_AAAA'], 'evt-3', '{}');
    expect(slow.error).toMatch(/timeout after 400 ms/);
    // The body never ends: only the deadline ends the delivery, so any bound tells the two apart; 10× is far from both.
    expect(slow.latencyMs).toBeLessThan(4_000);
    for (const server of [flooding, dripping]) server.close();
    s.close();
    impatient.close();
  });

  it('knows which addresses are private', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:10.0.0.1', '224.0.0.1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});
