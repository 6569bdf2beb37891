import type { Application } from '../../src/app.js';
import { EventStreamRepository } from '../../src/features/events/event-stream-repository.js';
import type { DomainEvent } from '../../src/features/matches/match-events.js';
import { recipientAppends } from '../../src/features/matches/recipient-appends.js';
import { spectatorEntry } from '../../src/features/spectator/spectator-appends.js';
import { SpectatorTallyRepository } from '../../src/features/spectator/spectator-tally-repository.js';
import { DAY_MS } from '../../src/platform/core/dates.js';
import { fabricatedFrames } from './fabricated-frames.js';

/** An event as the tests publish it: `spectator`, set on an agent event, is the public data the spectators are shown, as it is. */
export type TestEvent = DomainEvent & { spectator?: unknown };

export type EventPublisher = { publish(event: TestEvent): Promise<void> };

const SPECTATOR_TYPES: ReadonlySet<string> = new Set(['match.created', 'message.created', 'match.ended']);

/** The entries of a test event: one per recipient and, for an agent event with a spectator view, one for spectators. */
function testAppends(event: TestEvent, at: string) {
  const entries = recipientAppends(event, at);
  if (event.pool === 'agent' && event.spectator !== undefined && SPECTATOR_TYPES.has(event.type)) entries.push(spectatorEntry(event.type, at, event.spectator));
  return entries;
}

/**
 * Puts events that no write committed straight onto streams: each appended to its recipients' streams (and
 * the spectators'), announced so that every process relays it live. How socket tests and the bench feed
 * sockets without going through swipes and messages.
 */
export function streamPublisher(streams: EventStreamRepository): EventPublisher {
  return {
    publish: async (event) => {
      const appends = testAppends(event, new Date().toISOString()).map(async (entry) => {
        fabricatedFrames.add(entry.body);
        if (await streams.append(entry)) await streams.count(entry);
      });
      await Promise.all(appends);
    },
  };
}

/** Publishes `event` onto the streams of a running application's Redis. */
export function publishEvent(app: Application, event: TestEvent): Promise<void> {
  return streamPublisher(new EventStreamRepository(app.redis, app.scripts, undefined, DAY_MS, new SpectatorTallyRepository(app.redis).count)).publish(event);
}
