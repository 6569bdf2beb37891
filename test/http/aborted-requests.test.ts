import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/store/free-port.js';
import { killChildren, spawnTsx } from '../support/child-process.js';
import { startApp, startRedis, type TestApp } from '../support/stack.js';
import { eventually } from '../support/eventually.js';

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
    server = await startApp(redis.url, { SHUTDOWN_GRACE_MS: 20_000 });
    const socket = await startHalfBody(server.app.port);
    await eventually('the request in flight', () => server.app.http.inFlightCount === 1);
    socket.destroy();
    await eventually('nothing in flight', () => server.app.http.inFlightCount === 0);
    // Nothing is in flight any more, so stopping takes far less than the 20 s grace period.
    const started = Date.now();
    await server.app.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('SIGTERM', () => {
  it('exits within the grace period plus a bounded Redis close, even when Redis is unreachable', async () => {
    const port = await freePort();
    const service = spawnTsx(['src/main.ts', 'serve'], { PORT: String(port), HOST: '127.0.0.1', REDIS_URL: redis.url, SHUTDOWN_GRACE_MS: '1000' });
    await service.waitFor(/listening on/);
    // A request still sending its body when the signal comes: it may use the grace period, no more.
    const socket = await startHalfBody(port);
    await redis.stop();
    try {
      const started = Date.now();
      service.child.kill('SIGTERM');
      const code = await Promise.race([service.exited, new Promise((r) => setTimeout(() => r('still running after 10 s'), 10_000))]);
      expect(code).toBe(0);
      // 1 s of grace plus a few seconds at most for closing the connections to the unreachable Redis.
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      socket.destroy();
      await redis.start();
    }
  });
});
