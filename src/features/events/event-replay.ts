import type { Pool } from '../../platform/core/pool.js';
import type { StoredEvent } from './stored-event.js';
import type { EventStreamRepository } from './event-stream-repository.js';
import { spectatorStreamKeys, userStreamKeys } from '../../platform/redis/keys.js';

declare const replayStreamBrand: unique symbol;

/**
 * A stream to replay, as this service names it: callers get one from `userStream`/`spectatorStream` and hand
 * it back. `channel` is where its new entries are announced (what a fence after a replay must go through).
 */
export type ReplayStream = { readonly key: string; readonly channel: string; readonly [replayStreamBrand]: true };

/** Reads back the kept events of a user's stream or of the spectator stream, for a socket resuming with `since` or the inbox. */
export class EventReplay {
  constructor(private readonly streams: EventStreamRepository) {}

  /** The events told to one user. */
  userStream(pool: Pool, userId: number): ReplayStream {
    const { stream, channel } = userStreamKeys(pool, userId);
    return { key: stream, channel } as ReplayStream;
  }

  /** The public events of the agent pool's matches. */
  spectatorStream(): ReplayStream {
    const { stream, channel } = spectatorStreamKeys();
    return { key: stream, channel } as ReplayStream;
  }

  /** Up to `count` events of `stream` with an id strictly after `afterId`, oldest first. */
  after(stream: ReplayStream, afterId: string, count: number): Promise<StoredEvent[]> {
    return this.streams.after(stream.key, afterId, count);
  }

  /** The id of the newest event of `stream` (where a reader starting now begins); undefined when it holds none. */
  lastId(stream: ReplayStream): Promise<string | undefined> {
    return this.streams.lastId(stream.key);
  }

  /**
   * When more than `limit` events of `stream` are newer than `afterId`: the id of the oldest of the newest
   * `limit` (`first`) and of the event just before it (`before`). Undefined when `limit` or fewer are newer.
   */
  window(stream: ReplayStream, afterId: string, limit: number): Promise<{ first: string; before: string } | undefined> {
    return this.streams.window(stream.key, afterId, limit);
  }
}
