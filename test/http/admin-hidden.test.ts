import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, startTestRedis, type TestApp } from '../support/stack.js';

const ADMIN_TOKEN = 'operators-only-admin-secret';

let redis: Awaited<ReturnType<typeof startTestRedis>>;
let server: TestApp;
beforeAll(async () => {
  redis = await startTestRedis();
  server = await startApp(redis, { ADMIN_TOKEN });
});
afterAll(async () => {
  await server?.stop();
  await redis?.cleanup();
});

type Answer = { status: number; headers: Record<string, unknown>; body: string };
type Body = { name: string; headers: Record<string, string>; data?: Buffer };

const BODIES: Body[] = [
  { name: 'none', headers: {} },
  { name: 'malformed JSON', headers: { 'content-type': 'application/json' }, data: Buffer.from('{"outcome": ') },
  { name: 'wrong content type', headers: { 'content-type': 'text/plain' }, data: Buffer.from('outcome=resolved') },
  { name: 'huge', headers: { 'content-type': 'application/json' }, data: Buffer.from(JSON.stringify({ text: 'x'.repeat(200_000) })) },
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const ADMIN_PATHS = [
  '/api/v1/admin/reports?pool=agent',
  '/api/v1/admin/reports/agent/1/close',
  '/api/v1/admin/accounts/agent/1',
  '/api/v1/admin/accounts/agent/1/suspend',
  '/api/v1/admin/accounts/agent/1/lift',
  '/api/v1/admin/openapi.json',
  '/api/v1/admin',
];

/**
 * One request on a connection of its own (closed after the answer), read raw: a HEAD answer and an answer
 * given before the body was read are taken as they come, byte for byte, but for the date.
 */
function send(method: string, path: string, body: Body, authorization?: string): Promise<Answer> {
  const headers: Record<string, string> = {
    host: 'localhost',
    connection: 'close',
    'x-request-id': 'probe',
    origin: 'https://example.org',
    'access-control-request-method': 'POST',
    ...body.headers,
  };
  if (authorization) headers.authorization = authorization;
  if (body.data) headers['content-length'] = String(body.data.length);
  const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return new Promise((resolve) => {
    const socket = connect(server.app.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may answer and close before the whole body is sent: what it answered is what counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
      const answerHeaders = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]).filter(([name]) => name !== 'date'),
      );
      resolve({ status: Number(statusLine?.split(' ')[1]), headers: answerHeaders, body: raw.slice(split + 4) });
    });
    socket.write(head);
    if (body.data) socket.write(body.data);
  });
}

describe('the operators API without the admin token', () => {
  it('answers every path, method and body exactly as an unknown path does', async () => {
    for (const authorization of [undefined, 'Bearer not-the-admin-token', `Bearer ${ADMIN_TOKEN}x`]) {
      for (const method of METHODS) {
        for (const body of BODIES) {
          const unknown = await send(method, '/api/v1/nonexistent', body, authorization);
          expect(unknown.status).toBe(404);
          for (const path of ADMIN_PATHS) {
            const answer = await send(method, path, body, authorization);
            expect(answer, `${method} ${path} (${body.name}, ${authorization ?? 'no token'})`).toEqual(unknown);
          }
        }
      }
    }
  });

  it('leaves the admin routes out of the public OpenAPI document, and serves their own document to operators', async () => {
    const publicDoc = await server.api.get('/api/v1/openapi.json');
    expect(Object.keys(publicDoc.body.paths).filter((path) => path.startsWith('/api/v1/admin'))).toEqual([]);
    expect((await server.api.get('/api/v1/admin/openapi.json')).status).toBe(404);
    const adminDoc = await server.api.get('/api/v1/admin/openapi.json', { token: ADMIN_TOKEN });
    expect(adminDoc.status).toBe(200);
    expect(Object.keys(adminDoc.body.paths).sort()).toEqual([
      '/api/v1/admin/accounts/{pool}/{id}',
      '/api/v1/admin/accounts/{pool}/{id}/lift',
      '/api/v1/admin/accounts/{pool}/{id}/suspend',
      '/api/v1/admin/openapi.json',
      '/api/v1/admin/reports',
      '/api/v1/admin/reports/{pool}/{id}/close',
    ]);
  });

  it('still answers operators with the token: 405, a preflight, and the body checks', async () => {
    const token = `Bearer ${ADMIN_TOKEN}`;
    const put = await send('PUT', '/api/v1/admin/reports?pool=agent', BODIES[0]!, token);
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET');
    expect((await send('OPTIONS', '/api/v1/admin/reports', BODIES[0]!, token)).status).toBe(204);
    expect((await send('POST', '/api/v1/admin/reports/agent/1/close', BODIES[1]!, token)).status).toBe(400);
    expect((await send('POST', '/api/v1/admin/reports/agent/1/close', BODIES[2]!, token)).status).toBe(415);
  });
});
