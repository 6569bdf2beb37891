import type { EventReplay, ReplayStream } from '../event-replay.js';

/** Where a bounded replay starts: `since` itself, or (`after`) just before the newest `limit` events when `since` is older. */
export type ReplayStart = { truncated: false } | { truncated: true; frame: string; after: string };

/**
 * The frame telling a client that events between its `since` and `skipped_before` were not replayed. It has
 * no `id`: it is not an event, and a client keeping the last event id must not take it for one.
 */
export const truncatedFrame = (skippedBefore: string) => JSON.stringify({ type: 'replay.truncated', data: { skipped_before: skippedBefore } });

/**
 * A public replay reaches back `limit` events at most. Redis tells whether more than `limit` events are newer
 * than `since` and, if so, the ids either side of the window of the newest `limit` (ids only: the replay then
 * reads the window a page at a time, like any other replay).
 */
export async function replayStart(streams: EventReplay, stream: ReplayStream, since: string, limit: number): Promise<ReplayStart> {
  const window = await streams.window(stream, since, limit);
  if (!window) return { truncated: false };
  return { truncated: true, frame: truncatedFrame(window.first), after: window.before };
}
