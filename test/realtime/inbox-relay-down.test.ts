import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { publishEvent } from '../support/event-publisher.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { seedAccounts } from '../support/seeded-accounts.js';
import { onEveryMaster, startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
let admin: RedisClient;
beforeAll(async () => {
  // A wait far longer than the test may take: only a fresh look at the stream can answer the read in time.
  stack = await startStack({ EVENTS_MAX_WAIT_SECONDS: READ_WAIT_SECONDS });
  admin = stack.redis.client();
});
afterAll(async () => {
  admin?.disconnect();
  await stack?.stop();
});

const READ_WAIT_SECONDS = 300;

describe('a held read of the event inbox while this process hears no live events', () => {
  it('still answers an event appended meanwhile, before its wait ends, by looking at the stream again', async () => {
    const [agent] = await seedAccounts(stack.app, 'agent', 1);
    const append = (n: number) =>
      publishEvent(stack.app, {
        type: 'match.ended',
        pool: 'agent',
        recipients: [agent!.user_id],
        dataFor: () => ({ match_id: n, ended_at: new Date().toISOString() }),
      });
    await append(1);
    const cursor = (await stack.api.get('/api/v1/events?since=0', { token: agent!.token })).body.next_cursor as string;

    // The live relay goes down and stays down: Redis takes no new connection, and the subscriber's is cut.
    // The connections the writes go over are open already (the append above), and stay.
    try {
      await onEveryMaster(admin, (node) => node.config('SET', 'maxclients', '1'));
      await onEveryMaster(admin, (node) => node.call('CLIENT', 'KILL', 'TYPE', 'pubsub'));
      await eventually('the relay down (a new socket is refused with 503)', () =>
        EventSocket.open(stack.baseUrl, '/api/v1/ws', { token: agent!.token }).then(
          (socket) => {
            socket.ws.terminate();
            return false;
          },
          (refusal: { status?: number }) => refusal.status === 503,
        ),
      );

      const held = stack.api.get(`/api/v1/events?since=${cursor}&wait=${READ_WAIT_SECONDS}`, { token: agent!.token });
      await eventually('the read is held', () => stack.app.realtime.inbox!.waitingCount === 1);
      // Appended and announced, but the announcement reaches no process that is listening.
      await append(2);
      const res = await held;
      expect(res.status).toBe(200);
      expect(res.body.events).toMatchObject([{ type: 'match.ended', data: { match_id: 2 } }]);
    } finally {
      await onEveryMaster(admin, (node) => node.config('SET', 'maxclients', '10000'));
    }
  }, 90_000);
});
