import { compareEventIds } from '../event-ids.js';
import type { StoredEvent } from '../stored-event.js';
import type { EventReplay, ReplayStream } from '../event-replay.js';
import { CLOSE, type Close } from './close-codes.js';
import type { EventRelay, Hold } from './event-relay.js';
import { ReplayPages } from './replay-pages.js';
import type { Socket, SocketData } from './socket-data.js';

export type ReplayLimits = {
  /** Events per XRANGE read (all of a read is kept in memory until it is sent). */
  replayPage: number;
  /** The replay sends while the socket holds at most this many unsent bytes, then waits for it to drain. */
  replayChunkBytes: number;
  /** How long a replay waits for its fence (the live relay hearing its own announcement) before giving up. */
  fenceTimeoutMs: number;
};

/** How often a replay waiting for room looks again, should a `drain` not come. */
const DRAIN_POLL_MS = 200;

/** Where a bounded replay starts: `since` itself, or (`after`) just before the newest `limit` events when `since` is older. */
type ReplayStart = { truncated: false } | { truncated: true; frame: string; after: string };

/**
 * The frame telling a client that events between its `since` and `skipped_before` were not replayed. It has
 * no `id`: it is not an event, and a client keeping the last event id must not take it for one.
 */
const truncatedFrame = (skippedBefore: string) => JSON.stringify({ type: 'replay.truncated', data: { skipped_before: skippedBefore } });

/**
 * A public replay reaches back `limit` events at most. Redis tells whether more than `limit` events are newer
 * than `since` and, if so, the ids either side of the window of the newest `limit` (ids only: the replay then
 * reads the window a page at a time, like any other replay).
 */
async function replayStart(streams: EventReplay, stream: ReplayStream, since: string, limit: number): Promise<ReplayStart> {
  const window = await streams.window(stream, since, limit);
  if (!window) return { truncated: false };
  return { truncated: true, frame: truncatedFrame(window.first), after: window.before };
}

/**
 * Hands a socket opened with `since` from its stream to its live topic. It holds the topic (live events
 * are kept aside), replays the stream after `since` a page at a time, in chunks sent only as the socket
 * drains, waits for a fence so that every replayed event's announcement has arrived too, sends what was
 * held meanwhile (in chunks too, while more keeps arriving), then sends the last held events newer than
 * the last sent one and joins the topic in one synchronous step: neither a gap nor a duplicate.
 *
 * So a socket that does not read holds at most about two chunks of unsent bytes and one page of events
 * while it waits; it is closed by the sweeper (nothing goes out, or the ping sent behind the replay is not
 * answered), not by the replay. Sockets replaying the same part of a stream share its pages (ReplayPages).
 */
export class SocketReplay {
  private readonly pages: ReplayPages;

  constructor(
    private readonly streams: EventReplay,
    private readonly relay: EventRelay,
    private readonly limits: ReplayLimits,
    private readonly end: (ws: Socket, close: Close) => void,
  ) {
    this.pages = new ReplayPages(streams);
  }

  async run(ws: Socket, since: string): Promise<void> {
    const data = ws.getUserData();
    const hold = this.relay.hold(data.topic);
    const holdingSince = performance.now();
    try {
      let last = since;
      let sent = 0;
      if (data.replayLimit !== undefined) {
        const start = await replayStart(this.streams, data.stream, since, data.replayLimit);
        if (data.closed) return;
        if (start.truncated) {
          ws.send(start.frame);
          last = start.after;
        }
      }
      for (;;) {
        const page = await this.pages.after(data.stream, last, this.limits.replayPage, holdingSince);
        if (data.closed) return;
        if (!(await this.sendPaced(ws, data, page))) return;
        sent += page.length;
        if (page.length > 0) last = page[page.length - 1]!.id;
        if (hold.overflowed) return this.end(ws, CLOSE.tooSlow);
        if (page.length < this.limits.replayPage) break;
      }
      // Every event the replay read has now been announced here too, so the hold has what came after.
      await this.relay.fence(data.stream.channel, this.limits.fenceTimeoutMs);
      if (data.closed) return;
      for (;;) {
        if (hold.overflowed) return this.end(ws, CLOSE.tooSlow);
        const held = takeNewer(hold, last);
        if (bytesOf(held) <= this.limits.replayChunkBytes) {
          // The seam: no await from here on, so no live event can slip between these sends and subscribe().
          ws.cork(() => {
            for (const event of held) ws.send(event.frame);
          });
          ws.subscribe(data.topic);
          data.replaying = false;
          // The kernel may have taken all of it unread: the pong to this ping says the client read it (see SocketSweeper).
          if (sent > 0) {
            data.pingedAt = Date.now();
            ws.ping();
          }
          return;
        }
        // More was held than one chunk: send it as the socket drains (the hold goes on collecting), then look again.
        if (!(await this.sendPaced(ws, data, held))) return;
        sent += held.length;
        last = held[held.length - 1]!.id;
      }
    } finally {
      this.relay.release(hold);
    }
  }

  /** Sends `events` in chunks, each once the socket's unsent bytes are down to a chunk; false when it closed meanwhile. */
  private async sendPaced(ws: Socket, data: SocketData, events: StoredEvent[]): Promise<boolean> {
    const chunk = this.limits.replayChunkBytes;
    let next = 0;
    while (next < events.length) {
      if (ws.getBufferedAmount() > chunk) {
        if (!(await this.drained(ws, data))) return false;
        continue;
      }
      ws.cork(() => {
        for (let bytes = 0; next < events.length && bytes < chunk; next++) {
          ws.send(events[next]!.frame);
          bytes += events[next]!.frame.length;
        }
      });
    }
    return true;
  }

  /** Waits until the socket's unsent bytes are down to half a chunk; false when it closed first. */
  private async drained(ws: Socket, data: SocketData): Promise<boolean> {
    while (!data.closed && ws.getBufferedAmount() > this.limits.replayChunkBytes / 2) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_POLL_MS);
        data.onDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      data.onDrain = undefined;
    }
    return !data.closed;
  }
}

/** Takes every held event out of the hold, and returns those newer than `last` (the older ones were replayed). */
function takeNewer(hold: Hold, last: string): StoredEvent[] {
  return hold.events.splice(0).filter((event) => compareEventIds(event.id, last) > 0);
}

/** About the bytes of `events` on the wire (their frames' length in UTF-16 units: close enough for pacing). */
function bytesOf(events: StoredEvent[]): number {
  let bytes = 0;
  for (const event of events) bytes += event.frame.length;
  return bytes;
}
