import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { EventSocket } from '../support/event-socket.js';
import { nextLoopbackIp } from '../support/loopback.js';
import { startStack } from '../support/stack.js';

// The default caps: open sockets per address (WS_MAX_PER_IP) and connections per address (MAX_CONNECTIONS_PER_IP).
let stack: Awaited<ReturnType<typeof startStack>>;
const held: EventSocket[] = [];

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  for (const socket of held) socket.ws.terminate();
  await stack?.stop();
});

describe('the per-address caps, as configured by default', () => {
  it('answer the socket past WS_MAX_PER_IP from one address with 429 and Retry-After, not a reset', async () => {
    const { WS_MAX_PER_IP, MAX_CONNECTIONS_PER_IP } = loadConfig({});
    const ip = nextLoopbackIp();
    for (let i = 0; i < WS_MAX_PER_IP; i += 32) {
      const batch = Array.from({ length: Math.min(32, WS_MAX_PER_IP - i) }, () =>
        EventSocket.open(stack.baseUrl, '/api/v1/spectator/stream', { localAddress: ip }),
      );
      held.push(...(await Promise.all(batch)));
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await EventSocket.open(stack.baseUrl, '/api/v1/spectator/stream', { localAddress: ip }).then(
        () => {
          throw new Error('the upgrade was accepted');
        },
        (error: {
          status?: number;
          headers?: Record<string, string>;
          body?: { error: { code: string; message: string; retry_after_seconds: number } };
          message: string;
        }) => error,
      );
      expect(refused.status, refused.message).toBe(429);
      expect(refused.headers!['retry-after']).toBe('5');
      expect(refused.body!.error).toMatchObject({ code: 'rate_limited', retry_after_seconds: 5, limit: WS_MAX_PER_IP });
      expect(refused.body!.error.message).toMatch(/from this address/);
    }
    expect(stack.app.realtime.sockets!.size).toBe(WS_MAX_PER_IP);
    // The socket cap answers first because the connection cap is above it (past that one, a shorter 429 answers).
    expect(MAX_CONNECTIONS_PER_IP).toBeGreaterThan(WS_MAX_PER_IP);
  });
});
