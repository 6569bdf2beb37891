import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/platform/redis-server/free-port.js';
import { killChildren, spawnTsx } from '../support/child-process.js';
import { startApp, startRedis, type TestApp } from '../support/stack.js';
import { eventually } from '../support/eventually.js';
import { within } from '../support/within.js';

let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.cleanup();
});
afterEach(killChildren);

/** A POST whose body stops half-way: the client promises 1,000 bytes and sends 10. */
function startHalfBody(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('POST /api/v1/agents/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"');
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('a request whose client goes away while sending the body', () => {
  let server: TestApp;
  afterEach(async () => {
    await server?.stop();
  });

  it('is settled at once: the in-flight count goes down and shutdown does not wait for it', async () => {
    // A grace period of two minutes: a stop that waited for it could not pass for one that did not, on any machine.
    server = await startApp(redis.url, { SHUTDOWN_GRACE_MS: 120_000 });
    const socket = await startHalfBody(server.app.port);
    await eventually('the request in flight', () => server.app.http.inFlightCount === 1);
    socket.destroy();
    await eventually('nothing in flight', () => server.app.http.inFlightCount === 0);
    // Nothing is in flight any more, so stopping takes a moment (closing Redis), nowhere near the grace period.
    await within(server.app.stop(), 20_000, 'the stop, with a grace period of 120 s');
  });
});

describe('SIGTERM', () => {
  it('exits within the grace period plus a bounded Redis close, even when Redis is unreachable', async () => {
    const port = await freePort();
    const service = spawnTsx(['src/main.ts', 'serve'], { PORT: String(port), HOST: '127.0.0.1', REDIS_URL: redis.url, SHUTDOWN_GRACE_MS: '1000' });
    await service.waitFor(/listening on/);
    // A request still sending its body when the signal comes: it may use the grace period, no more. It never
    // ends and Redis never comes back, so a process that waited for either would never exit: 1 s of grace
    // and up to 2 s of closing take about 3 s, and 30 s tells the two apart on any machine.
    const socket = await startHalfBody(port);
    await redis.stop();
    try {
      service.child.kill('SIGTERM');
      expect(await within(service.exited, 30_000, 'the exit after SIGTERM')).toBe(0);
    } finally {
      socket.destroy();
      await redis.start();
    }
  }, 60_000);
});
