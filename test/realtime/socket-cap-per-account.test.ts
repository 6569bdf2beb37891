import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { startTwoApps, type TestApp } from '../support/stack.js';
import { within } from '../support/within.js';
import { SocketLeases } from '../../src/platform/limits/socket-lease-repository.js';
import { Scripts } from '../../src/platform/redis/scripts.js';

const CAP = 5;
const PER_TOKEN = 2;

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;
const open: EventSocket[] = [];

beforeAll(async () => {
  stack = await startTwoApps({ WS_MAX_PER_ACCOUNT: CAP, WS_MAX_PER_TOKEN: PER_TOKEN, WS_UPGRADE_RATE_LIMIT: 1_000 });
  ({ one, two } = stack);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

type Refusal = { status: number; headers: Record<string, string | undefined>; body: { error: { code: string; message: string; limit?: number } } };

/** An open socket, or the refusal of its upgrade. */
async function attempt(server: TestApp, token: string): Promise<EventSocket | Refusal> {
  try {
    const socket = await EventSocket.open(server.baseUrl, '/api/v1/ws', { token });
    open.push(socket);
    return socket;
  } catch (error) {
    return error as Refusal;
  }
}

async function tokensOf(account: Account, logins: number): Promise<string[]> {
  const tokens = [account.token];
  for (let i = 0; i < logins; i++) {
    const res = await (i % 2 ? one : two).api.post('/api/v1/auth/login', { body: { email: account.email, password: account.password } });
    expect(res.status).toBe(200);
    tokens.push(res.body.token);
  }
  return tokens;
}

describe('open sockets per account, across processes', () => {
  it('holds the account to its cap over every token and process, with a clear 429 past it; a closed socket frees its place', async () => {
    const agent = await registerAgent(one.api);
    const tokens = await tokensOf(agent, 3);
    // 4 tokens × 2 processes × 2 per token would be 16 sockets: the account's cap allows 5.
    const results: Array<EventSocket | Refusal> = [];
    for (const token of tokens) for (const server of [one, two]) for (let i = 0; i < PER_TOKEN; i++) results.push(await attempt(server, token));
    const sockets = results.filter((r): r is EventSocket => r instanceof EventSocket);
    const refusals = results.filter((r): r is Refusal => !(r instanceof EventSocket));
    expect(sockets).toHaveLength(CAP);
    expect(refusals).toHaveLength(4 * 2 * PER_TOKEN - CAP);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(429);
      expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
      expect(refusal.body.error).toMatchObject({
        code: 'rate_limited',
        limit: CAP,
        message: expect.stringMatching(/Too many open WebSockets for this account \(at most 5, over every server\)/),
      });
    }

    // A socket closed on one process frees a place that an upgrade on the other can take.
    const closing = sockets[0]!;
    await within(closing.close(), 10_000, 'socket closed');
    const reopened = await eventually('a place freed by the closed socket', async () => {
      const result = await attempt(two, tokens[3]!);
      if (!(result instanceof EventSocket)) throw new Error(`still refused: ${result.status}`);
      return result;
    });
    expect(reopened).toBeInstanceOf(EventSocket);
    const again = await attempt(one, tokens[3]!);
    expect(again).toMatchObject({ status: 429 });
  });

  it('is per account: another account, and the other pool, keep their own places', async () => {
    const agent = await registerAgent(one.api);
    const tokens = await tokensOf(agent, 2);
    for (let i = 0; i < CAP; i++) expect(await attempt(i % 2 ? one : two, tokens[i % 3]!)).toBeInstanceOf(EventSocket);
    expect(await attempt(one, tokens[2]!)).toMatchObject({ status: 429 });
    const other = await registerAgent(two.api);
    const member = await registerMember(two.api);
    expect(await attempt(one, other.token)).toBeInstanceOf(EventSocket);
    expect(await attempt(two, member.token)).toBeInstanceOf(EventSocket);
  });
});

describe('a process that dies with sockets open', () => {
  it("stops counting against the account once its leases lapse, while a live process's renewed leases keep counting", async () => {
    const client = stack.redis.client();
    const scripts = new Scripts(client);
    // Never started, so never renewing nor giving back: what a crashed process leaves behind.
    const crashed = new SocketLeases(client, scripts, 3, 1_500);
    const live = new SocketLeases(client, scripts, 3, 1_500).start();
    const account = { pool: 'agent' as const, userId: 990_001 };
    try {
      await crashed.take(account);
      await crashed.take(account);
      await live.take(account);
      await expect(live.take(account)).rejects.toMatchObject({ code: 'rate_limited' });
      // Once the crashed process's two leases lapse, two places are free again, and only two: the live lease still counts.
      // The two were taken apart in time, so they may lapse apart: each place is waited for.
      for (const lease of ['first', 'second']) {
        await eventually(`the crashed process's ${lease} lease lapsed`, async () => (await live.take(account).catch(() => undefined)) !== undefined);
      }
      await expect(live.take(account)).rejects.toMatchObject({ code: 'rate_limited' });
    } finally {
      live.stop();
      client.disconnect();
    }
  });
});
