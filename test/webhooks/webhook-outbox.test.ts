import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { OutboxRunner } from '../../src/platform/outbox/outbox-runner.js';
import { MatchListing } from '../../src/features/matches/match-listing.js';
import { EventStreamRepository } from '../../src/features/events/event-stream-repository.js';
import { EventAppender } from '../../src/features/events/event-appender.js';
import { MatchEventSteps } from '../../src/features/matches/match-event-steps.js';
import { spectatorAppends } from '../../src/features/spectator/spectator-appends.js';
import { MatchListRepository } from '../../src/features/matches/match-list-repository.js';
import { OutboxRepository } from '../../src/platform/outbox/outbox-repository.js';
import { registerAgent } from '../support/accounts.js';
import { eventually } from '../support/eventually.js';
import { pendingRecords } from '../support/outbox.js';
import { startStack } from '../support/stack.js';
import { userFrames } from '../support/stream-events.js';
import { startReceiver } from '../support/webhook-receiver.js';

// The sweeper completes records pending for 5 s: the test's own step, which must come first, runs well within
// that even on a busy machine (with 1 s, a loaded machine let the sweeper queue the delivery before the check).
let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack({ WEBHOOK_ALLOW_PRIVATE: true, EVENT_SWEEP_MS: 5_000 });
});
afterAll(async () => {
  await stack?.stop();
});

describe('webhook deliveries and the outbox', () => {
  it('a process dying between appending an event and queueing its delivery: the sweeper queues it, delivered once', async () => {
    const { app, api } = stack;
    const [ada, bo] = [await registerAgent(api), await registerAgent(api)];
    const r = await startReceiver();
    const hook = (await api.post('/api/v1/webhooks', { token: bo.token, body: { url: r.url, event_types: ['message.created'] } })).body as { id: string };
    await api.post(`/api/v1/likes/${bo.user_id}?kind=like`, { token: ada.token });
    const match = (await app.matches.find('agent', (await api.post(`/api/v1/likes/${ada.user_id}?kind=like`, { token: bo.token })).body.match.id))!;
    // The match's own outbox steps run after its answer and end by looking for bo's webhook's next event: done
    // late, on a busy machine, they would find the message below and queue it in the dying process's place.
    await eventually('the outbox steps of the match done', async () => (await pendingRecords(app.redis, 'agent')) === 0);

    // The write commits (its pending record in the outbox), then a process runs its outbox step: the
    // event is appended to both streams, and the process "dies" before it queues the webhook's job.
    const now = new Date();
    const draft = { match_id: match.id, sender_id: ada.user_id, body: 'hello', created_at: now.toISOString(), shared_interests_mentioned: [] };
    const outcome = await app.messages.append('agent', match, draft, now);
    if (outcome.status !== 'created') throw new Error(`message not created: ${outcome.status}`);
    const dying = new OutboxRunner(new OutboxRepository(app.redis, app.scripts), createLogger('silent'))
      .register(new MatchListing(new MatchListRepository(app.scripts)))
      .register(
        new MatchEventSteps(
          new EventAppender(new EventStreamRepository(app.redis, app.scripts)).onUserEvents({
            eventsAppended: () => Promise.reject(new Error('the process died here')),
          }),
          app.users,
          app.messages,
        ).addAudience(spectatorAppends),
      );
    await dying.complete('agent', outcome.pending);

    const [appended] = (await userFrames(app.redis, 'agent', bo.user_id)).filter((f) => f.type === 'message.created');
    expect(appended).toBeDefined();
    expect(await app.webhookJobs!.queue.queue.getJob(`${hook.id}.${appended!.id}`)).toBeUndefined();
    expect(await pendingRecords(app.redis, 'agent')).toBeGreaterThan(0);

    await eventually('the sweeper to queue the delivery and the worker to send it', () => r.received.length === 1, 30_000);
    expect(r.received[0]!.frame).toMatchObject({ id: appended!.id, type: 'message.created' });
    await eventually('the record completed', async () => (await pendingRecords(app.redis, 'agent')) === 0);
    // The step ran twice (the dying process, then the sweeper): the event is in the stream once, delivered once.
    expect((await userFrames(app.redis, 'agent', bo.user_id)).filter((f) => f.type === 'message.created')).toHaveLength(1);
    // A marker message: the webhook delivers in order, so any second delivery of the swept event came before it.
    expect((await api.post(`/api/v1/matches/${match.id}/messages`, { token: ada.token, body: { body: 'marker' } })).status).toBe(201);
    await eventually('the marker', () => r.received.length >= 2);
    expect(r.received.map((d) => d.frame.id)).toEqual([appended!.id, expect.not.stringMatching(appended!.id)]);
    await r.stop();
  });
});
