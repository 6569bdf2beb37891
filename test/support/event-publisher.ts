import type { Application } from '../../src/app.js';
import { EventStreams } from '../../src/features/events/event-stream-repository.js';
import type { DomainEvent } from '../../src/features/events/events.js';
import { streamAppends } from '../../src/features/events/stream-appends.js';
import { SpectatorTally } from '../../src/features/spectator/spectator-tally-repository.js';
import { DAY_MS } from '../../src/platform/core/dates.js';
import { fabricatedFrames } from './fabricated-frames.js';

export type EventPublisher = { publish(event: DomainEvent): Promise<void> };

/**
 * Puts events that no write committed straight onto streams: each appended to its recipients' streams (and
 * the spectators'), announced so that every process relays it live. How socket tests and the bench feed
 * sockets without going through swipes and messages.
 */
export function streamPublisher(streams: EventStreams): EventPublisher {
  return {
    publish: async (event) => {
      const appends = streamAppends(event, new Date().toISOString()).map(async (entry) => {
        fabricatedFrames.add(entry.body);
        if (await streams.append(entry)) await streams.count(entry);
      });
      await Promise.all(appends);
    },
  };
}

/** Publishes `event` onto the streams of a running application's Redis. */
export function publishEvent(app: Application, event: DomainEvent): Promise<void> {
  return streamPublisher(new EventStreams(app.redis, app.scripts, DAY_MS, new SpectatorTally(app.redis).count)).publish(event);
}
