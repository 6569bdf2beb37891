import type { Announcement } from '../domain/stored-event.js';
import { announcementMessage, parseAnnouncement } from '../store/event-streams.js';
import { liveChannels } from '../store/live-channels.js';
import type { PubSub } from '../store/pubsub.js';

/**
 * The live announcements of every process's appended events (the sharded channels of `liveChannels()`):
 * following them, and announcing a marker of one's own on every channel, which comes back on each behind
 * everything announced on it before.
 */
export class LiveEvents {
  private readonly channels = liveChannels();

  constructor(private readonly pubsub: PubSub) {}

  /** How many copies of one `announce` come back to a follower: one per channel. */
  get channelCount(): number {
    return this.channels.length;
  }

  /** Calls `handler` with every announcement from now on (malformed ones are dropped). */
  async follow(handler: (announcement: Announcement) => void): Promise<void> {
    const onMessage = (message: string) => {
      const announcement = parseAnnouncement(message);
      if (announcement) handler(announcement);
    };
    await Promise.all(this.channels.map((channel) => this.pubsub.subscribe(channel, onMessage)));
  }

  /** Publishes an announcement on every channel, to every process following them. */
  async announce(announcement: Announcement): Promise<void> {
    const message = announcementMessage(announcement);
    await Promise.all(this.channels.map((channel) => this.pubsub.publish(channel, message)));
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
