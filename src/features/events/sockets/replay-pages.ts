import type { StoredEvent } from '../stored-event.js';
import type { EventReplay, ReplayStream } from '../event-replay.js';

/** How long a page read stays shared. */
const SHARED_MS = 2_000;
/** The frames' characters kept for sharing, at most (the oldest pages go first). */
const MAX_SHARED_CHARS = 8 * 1024 * 1024;

type Read = { at: number; page: Promise<StoredEvent[]>; chars: number };

/**
 * Pages of the streams read for replays, shared by the sockets replaying the same part of a stream at about
 * the same time (a crowd reconnecting to the spectator stream, say): one read from Redis and one copy of
 * its frames in memory, however many sockets send them.
 *
 * A full page (`count` events) reads the same whenever it is read. A short one is the stream's end as of its
 * read: a socket may take it only if it was read after the socket began holding its topic's live events,
 * so that whatever was appended after the read reaches the socket through its hold.
 */
export class ReplayPages {
  private readonly reads = new Map<string, Read>();
  private chars = 0;

  constructor(private readonly streams: EventReplay) {}

  /** Up to `count` events after `afterId`, oldest first; `holdingSince` is when the caller began holding (performance.now()). */
  async after(stream: ReplayStream, afterId: string, count: number, holdingSince: number): Promise<StoredEvent[]> {
    const key = `${stream.key}\n${afterId}\n${count}`;
    const shared = this.reads.get(key);
    if (shared) {
      const page = await shared.page.catch(() => undefined);
      if (page && (page.length === count || shared.at >= holdingSince)) return page;
    }
    const read: Read = { at: performance.now(), page: this.streams.after(stream, afterId, count), chars: 0 };
    this.forget(key);
    this.reads.set(key, read);
    read.page.then(
      (page) => {
        if (this.reads.get(key) !== read) return;
        for (const event of page) read.chars += event.frame.length;
        this.chars += read.chars;
        for (const [oldest] of this.reads) {
          if (this.chars <= MAX_SHARED_CHARS) break;
          this.forget(oldest);
        }
      },
      () => {},
    );
    setTimeout(() => {
      if (this.reads.get(key) === read) this.forget(key);
    }, SHARED_MS).unref();
    return read.page;
  }

  private forget(key: string) {
    const read = this.reads.get(key);
    if (!read) return;
    this.chars -= read.chars;
    this.reads.delete(key);
  }
}
