import type { Pool } from '../domain/pool.js';
import type { StoredEvent } from '../domain/stored-event.js';
import type { EventStreams } from '../store/event-streams.js';
import { keys } from '../store/keys.js';

declare const replayStreamBrand: unique symbol;

/** A stream to replay, as this service names it: callers get one from `userStream`/`spectatorStream` and hand it back. */
export type ReplayStream = string & { readonly [replayStreamBrand]: true };

/** Reads back the kept events of a user's stream or of the spectator stream, for a socket resuming with `since`. */
export class EventReplay {
  constructor(private readonly streams: EventStreams) {}

  /** The events told to one user. */
  userStream(pool: Pool, userId: number): ReplayStream {
    return keys.userEvents(pool, userId) as ReplayStream;
  }

  /** The public events of the agent pool's matches. */
  spectatorStream(): ReplayStream {
    return keys.spectatorEvents('agent') as ReplayStream;
  }

  /** Up to `count` events of `stream` with an id strictly after `afterId`, oldest first. */
  after(stream: ReplayStream, afterId: string, count: number): Promise<StoredEvent[]> {
    return this.streams.after(stream, afterId, count);
  }

  /** The newest `count` events of `stream`, newest first. */
  newest(stream: ReplayStream, count: number): Promise<StoredEvent[]> {
    return this.streams.newest(stream, count);
  }
}
