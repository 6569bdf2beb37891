import { publishEvent } from '../support/event-publisher.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEvent } from '../support/event-publisher.js';
import { keys } from '../../src/platform/redis/keys.js';
import { registerAgent } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { startTwoApps, type TestApp } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startTwoApps>>;
let one: TestApp;
let two: TestApp;
const open: EventSocket[] = [];

beforeAll(async () => {
  stack = await startTwoApps();
  ({ one, two } = stack);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

async function connect(baseUrl: string, path: string, options?: { token?: string; headers?: Record<string, string> }) {
  const socket = await EventSocket.open(baseUrl, path, options);
  open.push(socket);
  return socket;
}

const event = (recipients: number[], n: number, extra: Partial<TestEvent> = {}): TestEvent => ({
  type: 'message.created',
  pool: 'agent',
  recipients,
  dataFor: (id) => ({ n, for: id }),
  ...extra,
});

async function streamIds(key: string): Promise<string[]> {
  const entries = (await one.app.redis.xrange(key, '-', '+')) as Array<[string, string[]]>;
  return entries.map(([id]) => id);
}

describe('GET /api/v1/ws: refusing the upgrade', () => {
  it('answers 401 with the error envelope for a missing, bad or tampered token', async () => {
    const agent = await registerAgent(one.api);
    const tampered = agent.token.slice(0, -3) + (agent.token.endsWith('aaa') ? 'bbb' : 'aaa');
    for (const options of [{}, { token: 'nonsense' }, { token: tampered }, { headers: { authorization: 'Basic abc' } }]) {
      const refusal = await connect(one.baseUrl, '/api/v1/ws', options).catch((e) => e);
      expect(refusal.status).toBe(401);
      expect(refusal.body.error.code).toBe('unauthorized');
      expect(refusal.body.error.message).toMatch(/token|Bearer/);
    }
    const viaQuery = await connect(one.baseUrl, '/api/v1/ws?access_token=nonsense').catch((e) => e);
    expect(viaQuery.status).toBe(401);
  });

  it('answers 401 once the token is revoked by logout', async () => {
    const agent = await registerAgent(one.api);
    expect((await one.api.post('/api/v1/auth/logout', { token: agent.token })).status).toBe(204);
    const refusal = await connect(two.baseUrl, '/api/v1/ws', { token: agent.token }).catch((e) => e);
    expect(refusal.status).toBe(401);
  });

  it('answers 400 naming since when since is not an event id', async () => {
    const agent = await registerAgent(one.api);
    const refusal = await connect(one.baseUrl, '/api/v1/ws?since=yesterday', { token: agent.token }).catch((e) => e);
    expect(refusal.status).toBe(400);
    expect(refusal.body.error.code).toBe('validation_failed');
    expect(refusal.body.error.details).toEqual([{ field: 'since', message: expect.stringContaining('id of the last event') }]);
    const spectator = await connect(one.baseUrl, '/api/v1/spectator/stream?since=1-2-3').catch((e) => e);
    expect(spectator.status).toBe(400);
  });
});

describe('GET on the socket paths without a WebSocket upgrade', () => {
  it('answers 400 saying it is a WebSocket endpoint', async () => {
    for (const path of ['/api/v1/ws', '/api/v1/spectator/stream']) {
      const res = await one.api.get(path);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'upgrade', message: expect.stringContaining('WebSocket') }]);
      expect(res.body.error.message).toBe(
        'Invalid request: upgrade is missing: this endpoint is a WebSocket, so connect with a WebSocket client (Upgrade: websocket).',
      );
    }
  });
});

describe('GET /api/v1/ws: delivery', () => {
  it('delivers frames {id, type, at, data} to the recipient, with the token in the header or in access_token', async () => {
    const a = await registerAgent(one.api);
    const b = await registerAgent(one.api);
    const viaHeader = await connect(one.baseUrl, '/api/v1/ws', { token: a.token });
    const viaQuery = await connect(one.baseUrl, `/api/v1/ws?access_token=${encodeURIComponent(a.token)}`);
    const other = await connect(one.baseUrl, '/api/v1/ws', { token: b.token });
    await publishEvent(one.app, event([a.user_id], 1));
    const [frame] = await viaHeader.waitFor(1);
    expect(frame).toEqual({ id: expect.stringMatching(/^\d+-\d+$/), type: 'message.created', at: expect.any(String), data: { n: 1, for: a.user_id } });
    expect(new Date(frame!.at).toISOString()).toBe(frame!.at);
    expect((await viaQuery.waitFor(1))[0]).toEqual(frame);
    await publishEvent(one.app, event([b.user_id], 2));
    expect((await other.waitFor(1))[0]!.data).toEqual({ n: 2, for: b.user_id });
    expect(viaHeader.frames).toHaveLength(1);
  });

  it('keeps the pools apart: a member event for the same number never reaches an agent socket', async () => {
    const a = await registerAgent(one.api);
    const socket = await connect(one.baseUrl, '/api/v1/ws', { token: a.token });
    await publishEvent(one.app, event([a.user_id], 1, { pool: 'member' }));
    await publishEvent(one.app, event([a.user_id], 2));
    expect(await socket.framesBefore((f) => f.data.n === 2)).toEqual([]);
  });

  it('reaches a socket on another server process sharing the Redis', async () => {
    const a = await registerAgent(one.api);
    const onTwo = await connect(two.baseUrl, '/api/v1/ws', { token: a.token });
    const spectatorOnTwo = await connect(two.baseUrl, '/api/v1/spectator/stream');
    await publishEvent(one.app, event([a.user_id], 7, { spectator: { message: { body: 'hi' } } }));
    expect((await onTwo.waitFor(1))[0]!.data).toEqual({ n: 7, for: a.user_id });
    const spectated = await spectatorOnTwo.waitForFrame((f) => f.data?.message?.body === 'hi');
    expect(spectated.synthetic).toBe(true);
    expect(spectated.data.synthetic).toBe(true);
  });
});

describe('since: replay then live, no gap and no duplicate', () => {
  it('replays exactly the events after since, then goes live', async () => {
    const a = await registerAgent(one.api);
    const first = await connect(one.baseUrl, '/api/v1/ws', { token: a.token });
    await publishEvent(one.app, event([a.user_id], 1));
    const [seen] = await first.waitFor(1);
    await first.close();
    // Missed while away:
    for (let n = 2; n <= 4; n++) await publishEvent(one.app, event([a.user_id], n));
    const back = await connect(two.baseUrl, `/api/v1/ws?since=${seen!.id}`, { token: a.token });
    const replayed = await back.waitFor(3);
    expect(replayed.map((f) => f.data.n)).toEqual([2, 3, 4]);
    await publishEvent(one.app, event([a.user_id], 5));
    await publishEvent(one.app, event([a.user_id], 6)); // the marker: nothing more came before it
    const beforeMarker = await back.framesBefore((f) => f.data.n === 6);
    expect(beforeMarker.map((f) => f.data.n)).toEqual([2, 3, 4, 5]);
    expect(beforeMarker.map((f) => f.id)).toEqual((await streamIds(keys.userEvents('agent', a.user_id))).slice(1, -1));
  });

  it('since=0 replays every kept event', async () => {
    const a = await registerAgent(one.api);
    for (let n = 1; n <= 3; n++) await publishEvent(one.app, event([a.user_id], n));
    const socket = await connect(one.baseUrl, '/api/v1/ws?since=0', { token: a.token });
    expect((await socket.waitFor(3)).map((f) => f.data.n)).toEqual([1, 2, 3]);
  });

  it('holds no gap and no duplicate when events keep arriving during the replay (many reconnects)', async () => {
    const a = await registerAgent(one.api);
    const key = keys.userEvents('agent', a.user_id);
    // A backlog large enough to take several replay pages.
    await Promise.all(Array.from({ length: 450 }, (_, i) => publishEvent(one.app, event([a.user_id], i))));
    const since = (await streamIds(key))[10]!;
    let publishing = true;
    let n = 1000;
    const publisher = (async () => {
      while (publishing) await Promise.all([publishEvent(one.app, event([a.user_id], n++)), publishEvent(two.app, event([a.user_id], n++))]);
    })();
    const sockets = [];
    for (let i = 0; i < 10; i++) {
      sockets.push(await connect(i % 2 ? two.baseUrl : one.baseUrl, `/api/v1/ws?since=${since}`, { token: a.token }));
      await new Promise((r) => setTimeout(r, 10)); // pacing: events keep arriving between the connects
    }
    await new Promise((r) => setTimeout(r, 150)); // and for a while after the last one
    publishing = false;
    await publisher;
    const all = await streamIds(key);
    const expected = all.slice(all.indexOf(since) + 1);
    await publishEvent(one.app, event([a.user_id], -1)); // the marker: every socket got exactly `expected` before it
    for (const socket of sockets) {
      expect((await socket.framesBefore((f) => f.data.n === -1)).map((f) => f.id)).toEqual(expected);
    }
  });
});

describe('slow consumers', () => {
  it('closes a socket that cannot keep up with 4008 and a reason; the others keep up; it resumes with since', async () => {
    const a = await registerAgent(one.api);
    const slow = await connect(one.baseUrl, '/api/v1/ws', { token: a.token });
    const fast = await connect(one.baseUrl, '/api/v1/ws', { token: a.token });
    const spectator = await connect(one.baseUrl, '/api/v1/spectator/stream');
    const socketsOpen = one.app.realtime.sockets!.size;
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = 'x'.repeat(60_000);
    const total = 300; // ~18 MB: past the kernel's socket buffers and the 1 MiB allowance
    for (let n = 0; n < total; n++) {
      await publishEvent(one.app, event([a.user_id], n, { dataFor: () => ({ n, big }), spectator: { n } }));
    }
    const fastFrames = await fast.waitFor(total, 20_000);
    expect(fastFrames.map((f) => f.data.n)).toEqual(Array.from({ length: total }, (_, i) => i));
    await spectator.waitForFrame((f) => f.data.n === total - 1, 10_000);
    // The sweep (every 250 ms) finds the backlog and ends the socket, which the server then forgets at once;
    // the paused client cannot see the close until it reads again.
    await eventually('the slow socket ended by the sweep', () => one.app.realtime.sockets!.size === socketsOpen - 1);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await slow.closed;
    expect(closed).toEqual({ code: 4008, reason: 'too slow; reconnect with since=<last id>' });
    const last = slow.frames.at(-1)!;
    expect(slow.frames.length).toBeLessThan(total);
    const resumed = await connect(one.baseUrl, `/api/v1/ws?since=${last.id}`, { token: a.token });
    const rest = await resumed.waitFor(total - slow.frames.length, 20_000);
    expect([...slow.frames, ...rest].map((f) => f.data.n)).toEqual(Array.from({ length: total }, (_, i) => i));
  });
});
