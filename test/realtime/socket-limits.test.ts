import { publishEvent } from '../support/event-publisher.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEvent } from '../support/event-publisher.js';
import { keys } from '../../src/platform/redis/keys.js';
import { eventually } from '../support/eventually.js';
import { nextLoopbackIp } from '../support/loopback.js';
import { registerAgent } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { startTwoApps, type TestApp } from '../support/stack.js';

const LIMITS = {
  SPECTATOR_REPLAY_LIMIT: 5,
  WS_MAX_PER_IP: 3,
  WS_MAX_PER_TOKEN: 2,
  WS_UPGRADE_RATE_LIMIT: 5,
  WS_UPGRADE_RATE_WINDOW_SECONDS: 60,
  SPECTATOR_UPGRADE_RATE_LIMIT: 10,
  SPECTATOR_UPGRADE_RATE_WINDOW_SECONDS: 60,
};

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;
const open: EventSocket[] = [];

beforeAll(async () => {
  stack = await startTwoApps(LIMITS);
  ({ one, two } = stack);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

async function connect(server: TestApp, path: string, options: { token?: string; localAddress?: string } = {}) {
  const socket = await EventSocket.open(server.baseUrl, path, { localAddress: nextLoopbackIp(), ...options });
  open.push(socket);
  return socket;
}

const refusal = (server: TestApp, path: string, options: { token?: string; localAddress?: string } = {}) =>
  connect(server, path, options).then(
    () => {
      throw new Error('the upgrade was accepted');
    },
    (error: {
      status: number;
      headers: Record<string, string | undefined>;
      body: { error: { code: string; message: string; retry_after_seconds?: number } };
    }) => error,
  );

/**
 * The first refusal within `attempts` upgrades (a process lets an account past its limit by at most one
 * upgrade while its count is on the way, as documented).
 */
async function refusalWithin(server: TestApp, path: string, options: { token?: string }, attempts: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await refusal(server, path, options);
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

const spectatorEvent = (n: number): TestEvent => ({ type: 'message.created', pool: 'agent', recipients: [], dataFor: () => ({}), spectator: { n } });

describe('spectator replay is bounded', () => {
  it('replays only the newest SPECTATOR_REPLAY_LIMIT events, saying where it skipped, then goes live', async () => {
    for (let n = 0; n < 12; n++) await publishEvent(one.app, spectatorEvent(n));
    const ids = ((await one.app.redis.xrange(keys.spectatorEvents('agent'), '-', '+')) as Array<[string, string[]]>).map(([id]) => id);
    expect(ids).toHaveLength(12);

    const fromStart = await connect(one, '/api/v1/spectator/stream?since=0');
    const frames = await fromStart.waitFor(6);
    expect(frames[0]).toEqual({ type: 'replay.truncated', data: { skipped_before: ids[7] } });
    expect(frames.slice(1).map((f) => f.data.n)).toEqual([7, 8, 9, 10, 11]);
    expect(frames.slice(1).map((f) => f.id)).toEqual(ids.slice(7));
    await publishEvent(two.app, spectatorEvent(12));
    expect((await fromStart.waitFor(7))[6]!.data.n).toBe(12);

    // From inside the window (now events 8 to 12) nothing is skipped, and no such frame is sent.
    const recent = await connect(two, `/api/v1/spectator/stream?since=${ids[7]}`);
    const replayed = await recent.waitFor(5);
    expect(replayed.map((f) => f.data.n)).toEqual([8, 9, 10, 11, 12]);
    expect(replayed.some((f) => f.type === 'replay.truncated')).toBe(false);
  });
});

describe('WebSocket connection caps', () => {
  it('refuses more than WS_MAX_PER_IP sockets from one address with 429, and frees the place when one closes', async () => {
    const ip = nextLoopbackIp();
    const agent = await registerAgent(one.api);
    const held = [
      await connect(one, '/api/v1/spectator/stream', { localAddress: ip }),
      await connect(one, '/api/v1/spectator/stream?since=0', { localAddress: ip }),
      await connect(one, '/api/v1/ws', { localAddress: ip, token: agent.token }),
    ];
    for (const path of ['/api/v1/spectator/stream', '/api/v1/ws']) {
      const refused = await refusal(one, path, { localAddress: ip, token: agent.token });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(refused.body.error.message).toMatch(/address/);
    }
    // Counted per process, and per address.
    await connect(two, '/api/v1/spectator/stream', { localAddress: ip });
    await connect(one, '/api/v1/spectator/stream');

    await held[0]!.close();
    await held[2]!.close();
    await connect(one, '/api/v1/spectator/stream', { localAddress: ip });
    await connect(one, '/api/v1/ws', { localAddress: ip, token: agent.token });
    expect((await refusal(one, '/api/v1/spectator/stream', { localAddress: ip })).status).toBe(429);
  });

  it('refuses more than WS_MAX_PER_TOKEN sockets of one token with 429; another token of the account is counted apart', async () => {
    const agent = await registerAgent(one.api);
    const held = [await connect(one, '/api/v1/ws', { token: agent.token }), await connect(one, '/api/v1/ws?since=0', { token: agent.token })];
    const refused = await refusal(one, '/api/v1/ws', { token: agent.token });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.message).toMatch(/token/);

    const login = await one.api.post('/api/v1/auth/login', { body: { email: agent.email, password: agent.password } });
    await connect(one, '/api/v1/ws', { token: login.body.token });

    await held[1]!.close();
    await connect(one, '/api/v1/ws', { token: agent.token });
  });

  it('limits upgrades per account across processes with 429 rate_limited and Retry-After', async () => {
    const agent = await registerAgent(one.api);
    for (let i = 0; i < LIMITS.WS_UPGRADE_RATE_LIMIT; i++) await (await connect(i % 2 ? two : one, '/api/v1/ws', { token: agent.token })).close();
    for (const server of [one, two]) {
      const refused = await refusalWithin(server, '/api/v1/ws', { token: agent.token }, 2);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(refused.body.error.retry_after_seconds).toBeGreaterThanOrEqual(1);
      expect(refused.body.error.retry_after_seconds).toBeLessThanOrEqual(60);
      expect(refused.headers['retry-after']).toBe(String(refused.body.error.retry_after_seconds));
    }
    // Another account is not affected.
    const other = await registerAgent(one.api);
    await connect(one, '/api/v1/ws', { token: other.token });
  });

  it('limits spectator upgrades per client address across processes with 429 rate_limited and Retry-After', async () => {
    const ip = nextLoopbackIp();
    for (let i = 0; i < LIMITS.SPECTATOR_UPGRADE_RATE_LIMIT; i++)
      await (await connect(i % 2 ? two : one, '/api/v1/spectator/stream?since=0', { localAddress: ip })).close();
    for (const server of [one, two]) {
      const refused = await refusal(server, '/api/v1/spectator/stream', { localAddress: ip });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(refused.body.error.message).toMatch(/spectator stream connections from this address/);
      expect(refused.body.error.retry_after_seconds).toBeGreaterThanOrEqual(1);
      expect(refused.body.error.retry_after_seconds).toBeLessThanOrEqual(LIMITS.SPECTATOR_UPGRADE_RATE_WINDOW_SECONDS);
      expect(refused.headers['retry-after']).toBe(String(refused.body.error.retry_after_seconds));
    }
    // Another address is not affected, and the refusals gave their socket places back.
    await connect(one, '/api/v1/spectator/stream');
    await eventually('no place held for the refused address', () => one.app.realtime.sockets!.capsHeld.addresses === one.app.realtime.sockets!.size);
  });

  it('gives every place back once the sockets are gone, however they ended', async () => {
    // Some end by the client's close, some by a dropped connection, one by the server (its token revoked).
    const agent = await registerAgent(one.api);
    const revoked = await connect(one, '/api/v1/ws', { token: agent.token });
    expect((await one.api.post('/api/v1/auth/logout', { token: agent.token })).status).toBe(204);
    expect((await revoked.closed).code).toBe(4003);
    const remaining = open.splice(0);
    await Promise.all(remaining.slice(0, 3).map((socket) => socket.close()));
    for (const socket of remaining.slice(3)) socket.ws.terminate();
    await eventually('every socket gone on both servers', () => [one, two].every((s) => s.app.realtime.sockets!.size === 0));
    for (const server of [one, two]) {
      expect(server.app.realtime.sockets!.size).toBe(0);
      expect(server.app.realtime.sockets!.capsHeld).toEqual({ addresses: 0, tokens: 0 });
    }
  });
});
