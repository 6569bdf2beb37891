import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD, registrationBody } from '../support/accounts.js';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.js';
import { eventually } from '../support/eventually.js';
import { startApp, type TestApp } from '../support/stack.js';

let cluster: RedisCluster;
let server: TestApp;
beforeAll(async () => {
  cluster = await startRedisCluster();
  server = await startApp({ kind: 'cluster', nodes: cluster.nodes });
});
afterAll(async () => {
  await server?.stop();
  await cluster?.cleanup();
});

it('keeps every acknowledged registration when a master is killed and restarted (AOF, no failover) while they go on', async () => {
  const acknowledged: string[] = [];
  let answered = 0;
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const email = `restart-${i}@example.com`;
      const res = await server.api.post('/api/v1/agents/register', { body: registrationBody({ email }) }).catch(() => undefined);
      answered++;
      if (res?.status === 201) acknowledged.push(email);
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  // Registrations hash passwords (argon2): on a busy machine a few a second. Restart once some are in, and
  // stop once some were answered after the restart.
  await eventually('registrations before the restart', () => acknowledged.length >= 5, 30_000);
  await cluster.restartNode(cluster.ports[1]!);
  const answeredAtRestart = answered;
  await eventually('registrations answered after the restart', () => answered >= answeredAtRestart + 5, 30_000);
  writing = false;
  await writer;

  expect(acknowledged.length, `${answered} registrations answered`).toBeGreaterThanOrEqual(5);
  for (const email of acknowledged) {
    const login = await server.api.post('/api/v1/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status, email).toBe(200);
  }
  // Registration works again once the node is back.
  const after = await server.api.post('/api/v1/agents/register', { body: registrationBody({ email: 'after-restart@example.com' }) });
  expect(after.status).toBe(201);
});
