import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { WebhookSender } from '../../src/features/webhooks/webhook-sender.js';
import { isRefusedAddress } from '../../src/features/webhooks/refused-addresses.js';
import type { DestinationPolicy, HostResolver } from '../../src/features/webhooks/webhook-destinations.js';
import { registerAgent } from '../support/accounts.js';
import { startDnsServer } from '../support/dns-server.js';
import { startStack } from '../support/stack.js';
import { receiversPerTest } from '../support/webhook-receiver.js';

// Private destinations and ports other than 80 and 443 refused, as in production (WEBHOOK_ALLOW_PRIVATE and
// WEBHOOK_ALLOWED_PORTS unset).
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

const ANY_PORT: DestinationPolicy = { allowPrivate: false, allowedPorts: 'any' };
const TRUSTING: DestinationPolicy = { allowPrivate: true, allowedPorts: 'any' };
/** A sender whose deadline a busy machine cannot reach by accident, unless a test gives it a short one to reach. */
const sender = (allowPrivate: boolean, timeoutMs = 10_000) =>
  new WebhookSender({ timeoutMs, maxResponseBytes: 1_024, destinations: allowPrivate ? TRUSTING : ANY_PORT });
const senderWith = (destinations: DestinationPolicy, resolve?: HostResolver) =>
  new WebhookSender({ timeoutMs: 10_000, maxResponseBytes: 1_024, destinations, resolve });
const REFUSED_ADDRESS = /^must not point to a private, loopback, link-local or reserved address: \S+ is (a|an|the) /;
/** What a refused destination says to do instead: read the events where no receiver is needed. */
const INSTEAD =
  'With no receiver this service can reach, read your events from the event inbox instead (GET /api/v1/events, whose wait= holds the answer until one comes) or keep the WebSocket /api/v1/ws open';

/** IPv6 forms of IPv4 addresses, and IPv6 ranges that are not public, each in more than one spelling. */
const REFUSED_IPV6 = [
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:7f00:1',
  '::FFFF:7F00:1',
  '0000:0000:0000:0000:0000:FFFF:127.0.0.1',
  '::ffff:8.8.8.8',
  '::ffff:a9fe:a9fe',
  '::127.0.0.1',
  '::7f00:1',
  '::808:808',
  '::ffff:0:7f00:1',
  '64:ff9b::7f00:1',
  '64:ff9b::8.8.8.8',
  '64:FF9B:0:0:0:0:A00:1',
  '64:ff9b:1::a00:1',
  '64:ff9b:1:ffff::1',
  '2002:7f00:1::1',
  '2002:808:808::1',
  '2002:a9fe:a9fe::',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  'fec0::1',
  'FEC0:0:0:0:0:0:0:1',
  'feff::1',
  '100::1',
  '100::ffff:ffff:ffff:ffff',
  '::fffe:7f00:1',
  '64:ff9c::1',
  '4000::1',
  'e000::1',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::',
  'fe80::1',
  'FE80::1',
  'febf::1',
  'fc00::1',
  'fdff::1',
  'ff02::1',
  'ff0e::1',
  '2001:db8::1',
];

describe('webhook destinations (SSRF)', () => {
  it('refuses private, loopback, link-local and unspecified addresses when a webhook is saved', async () => {
    const ada = await registerAgent(stack.api);
    const refused = [
      'http://127.0.0.1/hooks',
      'https://localhost/hooks',
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
      // and says where the events can be read with no receiver at all
      expect(res.body.error.details[0].message, url).toContain(INSTEAD);
      expect(res.body.error.message, url).toMatch(/event inbox instead \(GET \/api\/v1\/events[^)]*\) or keep the WebSocket \/api\/v1\/ws open/);
    }
    const changed = await stack.api.get('/api/v1/webhooks', { token: ada.token });
    expect(changed.body.items).toEqual([]);
  });

  it('refuses every IPv6 form of an IPv4 address and every IPv6 range that is not public when a webhook is saved, in any spelling', async () => {
    const ada = await registerAgent(stack.api);
    for (const address of REFUSED_IPV6) {
      const url = `http://[${address}]/hooks`;
      const res = await stack.api.post('/api/v1/webhooks', { token: ada.token, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('validation_failed');
      expect(res.body.error.details, url).toEqual([{ field: 'url', message: expect.stringMatching(REFUSED_ADDRESS) }]);
    }
    const mapped = await stack.api.post('/api/v1/webhooks', { token: ada.token, body: { url: 'http://[0:0:0:0:0:FFFF:127.0.0.1]/' } });
    expect(mapped.body.error.details[0].message).toBe(
      `must not point to a private, loopback, link-local or reserved address: ::ffff:7f00:1 is an IPv4-mapped IPv6 address. ${INSTEAD}`,
    );
    const nat64 = await stack.api.post('/api/v1/webhooks', { token: ada.token, body: { url: 'http://[64:ff9b:1::a00:1]/' } });
    expect(nat64.body.error.details[0].message).toBe(
      `must not point to a private, loopback, link-local or reserved address: 64:ff9b:1::a00:1 is a NAT64 (local-use) address. ${INSTEAD}`,
    );
    // Changing a webhook's URL is checked the same way.
    const hook = await stack.api.post('/api/v1/webhooks', { token: ada.token, body: { url: 'http://[2606:4700:4700::1111]/hooks' } });
    expect(hook.status).toBe(201);
    const changed = await stack.api.patch(`/api/v1/webhooks/${hook.body.id}`, { token: ada.token, body: { url: 'http://[2002:7f00:1::1]/hooks' } });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details).toEqual([
      { field: 'url', message: `must not point to a private, loopback, link-local or reserved address: 2002:7f00:1::1 is a 6to4 address. ${INSTEAD}` },
    ]);
    expect((await stack.api.get('/api/v1/webhooks', { token: ada.token })).body.items.map((h: { url: string }) => h.url)).toEqual([
      'http://[2606:4700:4700::1111]/hooks',
    ]);
    // Public addresses, IPv6 (2001:4860:: is beside Teredo's 2001::/32) and IPv4, are taken.
    for (const url of ['http://[2001:4860:4860::8888]/', 'https://8.8.8.8/hooks']) {
      expect((await stack.api.post('/api/v1/webhooks', { token: ada.token, body: { url } })).status, url).toBe(201);
    }
  });

  it('refuses a port other than 80 and 443 when a webhook is saved or changed', async () => {
    const bo = await registerAgent(stack.api);
    for (const [url, port] of [
      ['http://8.8.8.8:8080/hooks', 8080],
      ['https://8.8.8.8:22/', 22],
      ['http://[2606:4700:4700::1111]:6379/', 6379],
      ['https://8.8.8.8:8443/', 8443],
    ] as const) {
      const res = await stack.api.post('/api/v1/webhooks', { token: bo.token, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'url', message: `must use port 80 or 443, not ${port}: webhooks are delivered to no other port. ${INSTEAD}` }],
      });
    }
    // 80 and 443 whatever the scheme, written or implied.
    const taken = [];
    for (const url of ['http://8.8.8.8/', 'https://8.8.8.8/', 'http://8.8.8.8:443/', 'https://8.8.8.8:80/']) {
      const res = await stack.api.post('/api/v1/webhooks', { token: bo.token, body: { url } });
      expect(res.status, url).toBe(201);
      taken.push(res.body.id as string);
    }
    const changed = await stack.api.patch(`/api/v1/webhooks/${taken[0]}`, { token: bo.token, body: { url: 'http://8.8.8.8:25/' } });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details).toEqual([
      { field: 'url', message: `must use port 80 or 443, not 25: webhooks are delivered to no other port. ${INSTEAD}` },
    ]);
    expect((await stack.api.get(`/api/v1/webhooks/${taken[0]}`, { token: bo.token })).body.url).toBe('http://8.8.8.8/');
  });

  it('checks the resolved address again at delivery time: a name or literal that reaches a private address is never connected to', async () => {
    const r = await receiver();
    const guarded = sender(false);
    const byName = await guarded.send(`http://localhost:${r.port}/hooks`, ['whsec_AAAA'], 'evt-1', '{}');
    expect(byName.status).toBeUndefined();
    expect(byName.error).toBe('refused: localhost resolves to a private, loopback, link-local or reserved address');
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

  it('refuses a connection to a name that resolves, at delivery time, to an IPv6 form of an IPv4 address or a refused IPv6 range', async () => {
    const r = await receiver();
    const refusedNames: Record<string, string[]> = {
      'mapped.hooks.test': ['::ffff:7f00:1'],
      'mapped-public.hooks.test': ['::ffff:808:808'],
      'compatible.hooks.test': ['::7f00:1'],
      'nat64.hooks.test': ['64:ff9b::7f00:1'],
      'nat64-local.hooks.test': ['64:ff9b:1::7f00:1'],
      '6to4.hooks.test': ['2002:7f00:1::1'],
      'teredo.hooks.test': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
      'site-local.hooks.test': ['fec0::1'],
      'discard.hooks.test': ['100::1'],
      'loopback6.hooks.test': ['::1'],
      'link-local.hooks.test': ['fe80::1'],
      'unique-local.hooks.test': ['fd00::1'],
      'multicast.hooks.test': ['ff02::1'],
      'both.hooks.test': ['127.0.0.1', '64:ff9b::7f00:1'],
    };
    const dns = await startDnsServer({ ...refusedNames, 'loopback.hooks.test': ['127.0.0.1'] });
    const guarded = senderWith(ANY_PORT, dns.resolve);
    for (const name of Object.keys(refusedNames)) {
      const result = await guarded.send(`http://${name}:${r.port}/hooks`, ['whsec_AAAA'], `evt-${name}`, '{}');
      expect(result.status, name).toBeUndefined();
      expect(result.error, name).toBe(`refused: ${name} resolves to a private, loopback, link-local or reserved address`);
    }
    expect(r.received).toEqual([]);
    // The resolver is the one asked: with every destination allowed, a name of it reaches the receiver (an
    // IPv4-mapped answer too, through the IPv6 socket to 127.0.0.1).
    const trusting = senderWith(TRUSTING, dns.resolve);
    expect((await trusting.send(`http://loopback.hooks.test:${r.port}/hooks`, ['whsec_AAAA'], 'evt-a', '{}')).status).toBe(200);
    expect((await trusting.send(`http://mapped.hooks.test:${r.port}/hooks`, ['whsec_AAAA'], 'evt-b', '{}')).status).toBe(200);
    expect(r.received.map((d) => d.headers['webhook-id'])).toEqual(['evt-a', 'evt-b']);
    guarded.close();
    trusting.close();
    dns.stop();
  });

  it('refuses a delivery to a port not allowed before connecting, whatever was allowed when the webhook was saved', async () => {
    const r = await receiver();
    const webOnly = senderWith({ allowPrivate: true, allowedPorts: [80, 443] });
    expect(await webOnly.send(r.url, ['whsec_AAAA'], 'evt-1', '{}')).toEqual({
      error: `refused: port ${r.port} is not allowed (webhooks go to port 80 or 443)`,
      latencyMs: 0,
    });
    const named = senderWith({ allowPrivate: true, allowedPorts: [443, 8443, r.port] });
    expect((await named.send(r.url, ['whsec_AAAA'], 'evt-2', '{}')).status).toBe(200);
    expect(r.received.map((d) => d.headers['webhook-id'])).toEqual(['evt-2']);
    webOnly.close();
    named.close();
  });

  it('says why a delivery connection failed in a few fixed words: no address, port, certificate or banner of what it reached', async () => {
    const closed = await listen(() => {});
    const closedPort = Number(new URL(closed.url).port);
    closed.close();
    // A service that is not HTTP: it answers with a banner.
    const banner = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6 internal-db-7\r\n'));
    await new Promise<void>((resolve) => banner.listen(0, '127.0.0.1', resolve));
    const bannerPort = (banner.address() as AddressInfo).port;
    const dns = await startDnsServer({ 'closed.hooks.test': ['127.0.0.1'] });
    const s = senderWith(TRUSTING, dns.resolve);
    const cases: Array<[string, string]> = [
      [`http://127.0.0.1:${closedPort}/`, 'could not connect to the receiver'],
      [`http://closed.hooks.test:${closedPort}/`, 'could not connect to the receiver'],
      [`http://nowhere.hooks.test:${closedPort}/`, 'the host name did not resolve'],
      [`http://127.0.0.1:${bannerPort}/`, 'the answer was not HTTP'],
      [`https://127.0.0.1:${bannerPort}/`, 'TLS failed'],
    ];
    for (const [url, error] of cases) {
      const result = await s.send(url, ['whsec_AAAA'], 'evt-1', '{}');
      expect(result.error, url).toBe(error);
      expect(result.status, url).toBeUndefined();
    }
    s.close();
    banner.close();
    dns.stop();
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

  it('knows which addresses are refused, in any spelling', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '192.88.99.1',
      '203.0.113.5',
      ...REFUSED_IPV6,
      'fe80::1%eth0',
      '::1%lo',
    ]) {
      expect(isRefusedAddress(address), address).toBe(true);
    }
    for (const address of [
      '93.184.215.14',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '2a00:1450:4001::1',
      '2003::1',
      '3ffe::1',
      '2001:4::112',
    ]) {
      expect(isRefusedAddress(address), address).toBe(false);
    }
  });
});

describe('WEBHOOK_ALLOWED_PORTS', () => {
  it('is 80 and 443 unless set; * allows any port, as does WEBHOOK_ALLOW_PRIVATE=true unless ports are named', () => {
    expect(loadConfig({}).WEBHOOK_ALLOWED_PORTS).toEqual([80, 443]);
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: '443, 8443,80,443' }).WEBHOOK_ALLOWED_PORTS).toEqual([80, 443, 8443]);
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: '*' }).WEBHOOK_ALLOWED_PORTS).toBe('any');
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).WEBHOOK_ALLOWED_PORTS).toBe('any');
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOWED_PORTS: '443' }).WEBHOOK_ALLOWED_PORTS).toEqual([443]);
  });

  it('refuses anything but ports with one clear line', () => {
    for (const value of ['http', '80;443', '0', '65536', '80,', 'any']) {
      expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: value }), value).toThrow(ConfigError);
      try {
        loadConfig({ WEBHOOK_ALLOWED_PORTS: value });
      } catch (error) {
        expect((error as ConfigError).problems).toEqual([
          `config: WEBHOOK_ALLOWED_PORTS=${JSON.stringify(value)} must be a comma-separated list of ports (1-65535), e.g. 80,443,8443, or * for any port`,
        ]);
      }
    }
  });
});
