import { compareEventIds } from '../domain/event-ids.js';
import type { StoredEvent } from '../domain/stored-event.js';
import type { EventReplay, ReplayStream } from '../services/event-replay.js';

/** Where a bounded replay starts: `since` itself, or the newest `limit` events when `since` is older. */
export type ReplayStart = { truncated: false } | { truncated: true; frame: string; events: StoredEvent[] };

/**
 * The frame telling a client that events between its `since` and `skipped_before` were not replayed. It has
 * no `id`: it is not an event, and a client keeping the last event id must not take it for one.
 */
export const truncatedFrame = (skippedBefore: string) => JSON.stringify({ type: 'replay.truncated', data: { skipped_before: skippedBefore } });

/**
 * A public replay reaches back `limit` events at most. One read of the newest `limit + 1` entries tells
 * whether `since` is older than that window (the extra entry is newer than `since`); if so, the window itself,
 * oldest first, is what the replay starts with.
 */
export async function replayStart(streams: EventReplay, stream: ReplayStream, since: string, limit: number): Promise<ReplayStart> {
  const newest = await streams.newest(stream, limit + 1);
  const outside = newest[limit];
  if (!outside || compareEventIds(outside.id, since) <= 0) return { truncated: false };
  const events = newest.slice(0, limit).reverse();
  return { truncated: true, frame: truncatedFrame(events[0]!.id), events };
}
