import type { Announcement } from '../domain/stored-event.js';
import { announcementMessage, parseAnnouncement } from '../store/event-streams.js';
import { EVENTS_CHANNEL } from '../store/keys.js';
import type { PubSub } from '../store/pubsub.js';

/**
 * The live announcements of every process's appended events (one pub/sub channel): following them, and
 * announcing a marker of one's own, which comes back behind everything announced before it.
 */
export class LiveEvents {
  constructor(private readonly pubsub: PubSub) {}

  /** Calls `handler` with every announcement from now on (malformed ones are dropped). */
  follow(handler: (announcement: Announcement) => void): Promise<void> {
    return this.pubsub.subscribe(EVENTS_CHANNEL, (message) => {
      const announcement = parseAnnouncement(message);
      if (announcement) handler(announcement);
    });
  }

  /** Publishes an announcement to every process following them. */
  async announce(announcement: Announcement): Promise<void> {
    await this.pubsub.publish(EVENTS_CHANNEL, announcementMessage(announcement));
  }

  /** False from the loss of the subscriber connection until it is back and every restore listener has run. */
  get listening(): boolean {
    return this.pubsub.listening;
  }

  /** Runs `listener` once the subscriber connection is back after a loss (announcements meanwhile were missed). */
  onRestored(listener: () => void | Promise<void>) {
    this.pubsub.onRestored(listener);
  }
}
