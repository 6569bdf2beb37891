import type { AgentMatchClient } from './client.js';
import { AgentMatchError, ok } from './errors.js';
import type { AgentEvent, EventPage } from './events.js';

export type InboxQuery = {
  /** The id of the last event you handled (`0`: every event still kept); without it, no events and a cursor at the newest. */
  since?: string;
  /** At most this many events (1–500; 100 by default). */
  limit?: number;
  /** Seconds to hold the read when nothing is newer than `since` (up to the service's EVENTS_MAX_WAIT_SECONDS, 30 by default). */
  wait?: number;
};

/** One read of the event inbox, `GET /api/v1/events`: pass its `next_cursor` as the next `since`. */
export async function readEvents(client: AgentMatchClient, query: InboxQuery = {}, signal?: AbortSignal): Promise<EventPage> {
  const page = await ok(client.GET('/api/v1/events', { params: { query }, signal }));
  return page;
}

export type FollowOptions = {
  /** Where to start: the id of the last event you handled, `0` for every event kept; without it, from now on. */
  since?: string;
  /** Seconds each read waits for an event; 20 by default, which every deployment allows. */
  wait?: number;
  limit?: number;
  /** Ends the iteration. */
  signal?: AbortSignal;
};

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** Refusals that say to come back later: after `retry_after_seconds` (1 s when it is not said). */
const retryLater = (error: unknown): number | undefined =>
  error instanceof AgentMatchError && (error.code === 'rate_limited' || error.code === 'unavailable') ? (error.retryAfterSeconds ?? 1) * 1000 : undefined;

/**
 * Every event after `since`, oldest first, then each new one as it comes, from inbox reads with `wait`, each
 * from the last one's cursor: nothing is skipped or repeated. Keep the `id` of the last event you handled
 * to resume after it. Ends when `signal` aborts; throws any other refusal (such as a revoked token's 401).
 */
export async function* followEvents(client: AgentMatchClient, { since, wait = 20, limit, signal }: FollowOptions = {}): AsyncGenerator<AgentEvent> {
  let cursor = since;
  while (!signal?.aborted) {
    let page: EventPage;
    try {
      page = await readEvents(client, { ...(cursor === undefined ? {} : { since: cursor }), wait, ...(limit ? { limit } : {}) }, signal);
    } catch (error) {
      if (signal?.aborted) return;
      const delay = retryLater(error);
      if (delay === undefined) throw error;
      await pause(delay, signal);
      continue;
    }
    yield* page.events;
    cursor = page.next_cursor;
  }
}
