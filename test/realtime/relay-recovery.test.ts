import { publishEvent } from '../support/event-publisher.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEvent } from '../support/event-publisher.js';
import { registerAgent } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { startRestartableStack } from '../support/stack.js';
import { eventually } from '../support/eventually.js';

let server: Awaited<ReturnType<typeof startRestartableStack>>;
beforeAll(async () => {
  server = await startRestartableStack();
});
afterAll(() => server?.stop());

const event = (userId: number, n: number): TestEvent => ({ type: 'message.created', pool: 'agent', recipients: [userId], dataFor: () => ({ n }) });

describe('when Redis goes away and comes back', () => {
  it('refuses new sockets with 503, then asks open ones to resume with since, and nothing is lost', async () => {
    const agent = await registerAgent(server.api);
    const socket = await EventSocket.open(server.baseUrl, '/api/v1/ws', { token: agent.token });
    await publishEvent(server.app, event(agent.user_id, 1));
    const [first] = await socket.waitFor(1);

    await server.redis.stop();
    const refused = await EventSocket.open(server.baseUrl, '/api/v1/ws', { token: agent.token }).catch((e) => e);
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('unavailable');

    await server.redis.start();
    // Published as soon as Redis takes writes, possibly before this process hears live events again.
    await eventually('an event published', () => publishEvent(server.app, event(agent.user_id, 2)));
    expect(await socket.closed).toEqual({ code: 1012, reason: 'live relay was interrupted; reconnect with since=<last id>' });

    const lastSeen = socket.frames.at(-1)!.id;
    expect(socket.frames[0]!.id).toBe(first!.id);
    const resumed = await eventually('a resumed socket', () => EventSocket.open(server.baseUrl, `/api/v1/ws?since=${lastSeen}`, { token: agent.token }));
    await publishEvent(server.app, event(agent.user_id, 3));
    await publishEvent(server.app, event(agent.user_id, 4)); // the marker: nothing else came before it
    const beforeMarker = await resumed.framesBefore((f) => f.data.n === 4);
    expect([...socket.frames, ...beforeMarker].map((f) => f.data.n)).toEqual([1, 2, 3]);
    resumed.ws.terminate();
  });
});
