import { compareEventIds } from '../domain/event-ids.js';
import type { StoredEvent } from '../domain/stored-event.js';
import type { EventReplay } from '../services/event-replay.js';
import { CLOSE, type Close } from './close-codes.js';
import type { EventRelay } from './event-relay.js';
import { replayStart } from './replay-window.js';
import type { Socket, SocketData } from './socket-data.js';

export type ReplayLimits = {
  /** Events per XRANGE page. */
  replayPage: number;
  /** How long a replay waits for a socket to drain before calling it too slow. */
  replayDrainMs: number;
  /** A replay sends its next page once the socket's unsent bytes are under half of this. */
  slowBytes: number;
};

/**
 * Hands a socket opened with `since` from its stream to its live topic. It holds the topic (live events
 * are kept aside), replays the stream after `since` a page at a time as the socket drains, waits for a
 * fence so that every replayed event's announcement has arrived too, then sends the held events newer
 * than the last replayed one and joins the topic in one synchronous step: neither a gap nor a duplicate.
 */
export class SocketReplay {
  constructor(
    private readonly streams: EventReplay,
    private readonly relay: EventRelay,
    private readonly limits: ReplayLimits,
    private readonly end: (ws: Socket, close: Close) => void,
  ) {}

  async run(ws: Socket, since: string): Promise<void> {
    const data = ws.getUserData();
    const hold = this.relay.hold(data.topic);
    try {
      let last = since;
      let window: StoredEvent[] | undefined;
      if (data.replayLimit !== undefined) {
        const start = await replayStart(this.streams, data.stream, since, data.replayLimit);
        if (data.closed) return;
        if (start.truncated) {
          ws.send(start.frame);
          window = start.events;
        }
      }
      for (;;) {
        const page = window ?? (await this.streams.after(data.stream, last, this.limits.replayPage));
        window = undefined;
        if (data.closed) return;
        if (page.length > 0) {
          ws.cork(() => {
            for (const event of page) ws.send(event.frame);
          });
          last = page[page.length - 1]!.id;
        }
        if (hold.overflowed) return this.end(ws, CLOSE.tooSlow);
        if (page.length < this.limits.replayPage) break;
        if (!(await this.drained(ws, data))) return;
      }
      // Every event the replay read has now been announced here too, so the hold has what came after.
      await this.relay.fence(data.stream.channel, this.limits.replayDrainMs);
      if (data.closed) return;
      if (hold.overflowed) return this.end(ws, CLOSE.tooSlow);
      // The seam: no await from here on, so no live event can slip between these sends and subscribe().
      const lastReplayed = last;
      ws.cork(() => {
        for (const event of hold.events) if (compareEventIds(event.id, lastReplayed) > 0) ws.send(event.frame);
      });
      ws.subscribe(data.topic);
      data.replaying = false;
    } finally {
      this.relay.release(hold);
    }
  }

  /** Waits until the socket has room for another page; false (and the socket closed) when it does not get it in time. */
  private async drained(ws: Socket, data: SocketData): Promise<boolean> {
    const deadline = Date.now() + this.limits.replayDrainMs;
    while (!data.closed && ws.getBufferedAmount() > this.limits.slowBytes / 2) {
      if (Date.now() >= deadline) {
        this.end(ws, CLOSE.tooSlow);
        return false;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
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
