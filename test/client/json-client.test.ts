import { createServer, type Server } from 'node:http';
import type { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonClient } from '../../src/clients/json-client.js';
import { eventually } from '../support/eventually.js';

// A bare HTTP server of the test's own, not the service: no OpenAPI document to hold it to, so a plain JsonClient.
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  // A server that keeps idle connections far longer than the client does: only the client can drop one.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('JsonClient', () => {
  it('drops an idle keep-alive connection itself, so it never writes a request onto one the server is closing', async () => {
    const client = new JsonClient(baseUrl);
    const agent = (client as unknown as { agent: Agent }).agent;
    const idle = () => Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
    expect((await client.get('/')).body).toEqual({ ok: true });
    expect(idle()).toBe(1);
    await eventually('the idle connection dropped by the client', () => idle() === 0, 60_000);
    expect((await client.get('/')).body).toEqual({ ok: true });
    client.close();
  }, 90_000);
});
