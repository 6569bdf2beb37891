/** A stored event: its stream entry id (the event id) and the full client frame (JSON, id included). */
export type StoredEvent = { id: string; frame: string };

/** A live announcement, as every process receives it: the event and the route (topic) it is for. */
export type Announcement = StoredEvent & { route: string };
