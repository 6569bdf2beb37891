/** A stored event: its stream entry id (the event id) and the full client frame (JSON, id included). */
export type StoredEvent = { id: string; frame: string };

/** An event as read back: its id and its frame without the id. */
export type EventBody = { id: string; body: string };

/** A live announcement, as every process receives it: the event and the route (topic) it is for. */
export type Announcement = StoredEvent & { route: string };

/** The frame JSON with `"id"` spliced in first (the same construction as lua/append_event-2.lua). */
export function frameWithId(id: string, body: string): string {
  return body.length > 2 ? `{"id":"${id}",${body.slice(1)}` : `{"id":"${id}"}`;
}
