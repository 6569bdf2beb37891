import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { startApp, startTestRedis, type TestApp } from '../support/stack.js';

let redis: Awaited<ReturnType<typeof startTestRedis>>;
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  redis = await startTestRedis();
  first = await startApp(redis);
  second = await startApp(redis);
});
afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await redis?.cleanup();
});

/**
 * Sends `head` (request line and headers) and none of the body it announces; resolves with what comes back
 * once an error answer is complete, or with whatever came when the server closes the connection. A server
 * that waited for the body would answer nothing until its idle timeout closed the connection: the test
 * tells the two apart by what was answered, not by how long it took.
 */
function sendHeadOnly(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n\r\n') && answer.includes('"error"')) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(head);
  });
}

describe('the body is read only after authentication', () => {
  it('answers 401 to a POST without a token at once, without waiting for the body it announces', async () => {
    const answer = await sendHeadOnly(first.app.port, 'PATCH /api/v1/me HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized/);
    expect(answer).toMatch(/"code":"unauthorized"/);
  });

  it('answers 401 to a bad token the same way (the check that waits on the signature)', async () => {
    const answer = await sendHeadOnly(
      first.app.port,
      'POST /api/v1/matches/1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer not.a.token\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized/);
  });

  it('still reads a body that arrives while a token is verified for the first time in a process', async () => {
    const agent = await registerAgent(first.api);
    // The second process has never seen this token: its check waits on the signature and on Redis.
    const res = await second.api.patch('/api/v1/me', { token: agent.token, body: { bio: 'read after the token passed' } });
    expect(res.status).toBe(200);
    expect(res.body.bio).toBe('read after the token passed');
  });
});
