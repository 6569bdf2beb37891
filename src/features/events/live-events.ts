import type { Announcement } from './stored-event.js';
import { announcementMessage, parseAnnouncement } from './event-stream-repository.js';
import { liveEventChannels } from '../../platform/redis/keys.js';
import type { PubSub } from '../../platform/redis/pubsub.js';

/**
 * The live announcements of every process's appended events (a sharded pub/sub channel per shard of
 * streams, so each goes only to the Redis node of its stream): following them, and announcing a marker of
 * one's own on a channel, which comes back behind everything announced there before it.
 */
export class LiveEvents {
  constructor(private readonly pubsub: PubSub) {}

  /** Calls `handler` with every announcement from now on (malformed ones are dropped). */
  async follow(handler: (announcement: Announcement) => void): Promise<void> {
    const onMessage = (message: string) => {
      const announcement = parseAnnouncement(message);
      if (announcement) handler(announcement);
    };
    await Promise.all(liveEventChannels().map((channel) => this.pubsub.subscribe(channel, onMessage)));
  }

  /** Publishes an announcement on `channel` to every process following them. */
  async announce(channel: string, announcement: Announcement): Promise<void> {
    await this.pubsub.publish(channel, announcementMessage(announcement));
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
