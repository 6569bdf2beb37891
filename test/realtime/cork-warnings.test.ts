import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CORK_ANCHOR_PATH } from '../../src/platform/http/cork-anchor.js';
import { freePort } from '../../src/platform/redis-server/free-port.js';
import { registerAgent } from '../support/accounts.js';
import { killChildren, spawnTsx } from '../support/child-process.js';
import { ContractClient } from '../support/contract-client.js';
import { EventSocket } from '../support/event-socket.js';
import { startRedis } from '../support/stack.js';

afterEach(killChildren);
let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
afterAll(async () => {
  await redis?.cleanup();
});

const UWS_WARNING = /corked callback/;

describe('WebSocket upgrades decided after an await', () => {
  // uWS prints its warning from native code, so only a real server process's output shows it.
  it('are corked, so the server prints no uWS warning, whether or not another socket is open', async () => {
    redis = await startRedis();
    const port = await freePort();
    const server = spawnTsx(['src/main.ts', 'serve'], {
      PORT: String(port),
      REDIS_URL: redis.url,
      TOKEN_SECRET: 'cork-test-secret-cork-test-secret!',
      EMBEDDED_WORKER: 'false',
    });
    await server.waitFor(/listening on/);
    const baseUrl = `http://127.0.0.1:${port}`;
    const agent = await registerAgent(await ContractClient.served(baseUrl));

    // One at a time, each closed before the next: the process holds no client socket at any of these upgrades.
    for (let i = 0; i < 3; i++) {
      for (const [path, token] of [
        ['/api/v1/ws', agent.token],
        ['/api/v1/spectator/stream', undefined],
      ] as const) {
        const socket = await EventSocket.open(baseUrl, path, { token });
        await socket.close();
      }
    }
    // And several at once.
    const open = await Promise.all(Array.from({ length: 4 }, () => EventSocket.open(baseUrl, '/api/v1/ws', { token: agent.token })));
    await Promise.all(open.map((s) => s.close()));
    // A refusal after the await is written corked too.
    const refused = await EventSocket.open(baseUrl, '/api/v1/ws', { token: 'not-a-token' }).catch((e: { status: number }) => e.status);
    expect(refused).toBe(401);

    // The anchor's own endpoint answers nobody without this process's key.
    const stranger = await EventSocket.open(baseUrl, `${CORK_ANCHOR_PATH}?key=guess`).catch((e: { status: number }) => e.status);
    expect(stranger).toBe(404);

    // Everything above has been answered, so anything it made the server print is in the output by now.
    expect(server.output()).toMatch(/listening on/);
    expect(server.output()).not.toMatch(UWS_WARNING);
  }, 120_000);
});
