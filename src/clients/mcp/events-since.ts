import type { ApiSession } from './api-session.js';

/** A frame of `GET /api/v1/events` (the same as `GET /api/v1/ws` sends): `{id, type, at, data}` (docs/api.md, "Event inbox"). */
export type EventFrame = { id: string; type: string; at: string; data: unknown };

export type EventsPage = { events: EventFrame[]; next_cursor: string };

export type EventsSinceOptions = {
  /** An event id, or "0" for every event the service still keeps. */
  since: string;
  /** The most events to return; the rest come with the next call. */
  limit: number;
  /** How long to wait for an event when none is newer than `since` (0: return at once). */
  waitSeconds: number;
};

/** The longest wait one inbox read asks for: every deployment allows at least this much (EVENTS_MAX_WAIT_SECONDS). */
export const INBOX_READ_WAIT_SECONDS = 20;

/**
 * The caller's events after `since`, from the event inbox (`GET /api/v1/events`). A wait longer than one
 * read may hold is made of several reads, until an event comes or the wait is over. A refusal throws the
 * API's error envelope (a ToolFailure).
 */
export async function eventsSince(session: ApiSession, options: EventsSinceOptions): Promise<EventsPage> {
  const until = Date.now() + options.waitSeconds * 1000;
  let since = options.since;
  for (;;) {
    const wait = Math.min(INBOX_READ_WAIT_SECONDS, Math.max(0, Math.ceil((until - Date.now()) / 1000)));
    const page = await session.call<EventsPage>('GET', '/api/v1/events', { query: { since, limit: options.limit, wait } });
    if (page.events.length > 0 || wait === 0 || Date.now() >= until) return page;
    since = page.next_cursor;
  }
}
