import type { RedisClient } from './redis.js';
import type { Announcement, StoredEvent } from '../domain/stored-event.js';
import { EVENTS_CHANNEL } from './keys.js';
import type { Scripts } from './scripts.js';

/** One entry to append: `body` is the client frame as JSON without its id; `route` is announced with it. */
export type StreamAppend = { key: string; route: string; maxLength: number; body: string };

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Event streams in Redis: appending (one Lua call for all of an event's streams, trimmed by age and
 * length, announced on pub/sub) and reading back after a given entry id for replay.
 */
export class EventStreams {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly retentionMs = DAY_MS,
  ) {}

  /** Appends every entry atomically; returns the new entry ids in order. */
  append(entries: readonly StreamAppend[]): Promise<string[]> {
    const args: Array<string | number> = [EVENTS_CHANNEL, this.retentionMs];
    for (const entry of entries) args.push(entry.maxLength, entry.route, entry.body);
    return this.scripts.run<string[]>('append_events', entries.map((e) => e.key), args);
  }

  /** Up to `count` events of `key` with an id strictly after `afterId`, oldest first. */
  async after(key: string, afterId: string, count: number): Promise<StoredEvent[]> {
    const entries = (await this.redis.xrange(key, `(${afterId}`, '+', 'COUNT', count)) as Array<[string, string[]]>;
    return toEvents(entries);
  }

  /** The newest `count` events of `key`, newest first. */
  async newest(key: string, count: number): Promise<StoredEvent[]> {
    return toEvents(await this.redis.xrevrange(key, '+', '-', 'COUNT', count));
  }
}

function toEvents(entries: Array<[string, string[]]>): StoredEvent[] {
  return entries.map(([id, fields]) => ({ id, frame: frameWithId(id, fields[fields.indexOf('e') + 1] ?? '{}') }));
}

/** The frame JSON with `"id"` spliced in first (the same construction as lua/append_events.lua). */
export function frameWithId(id: string, body: string): string {
  return body.length > 2 ? `{"id":"${id}",${body.slice(1)}` : `{"id":"${id}"}`;
}

/** An announcement as lua/append_events.lua publishes it: route, id and frame, one per line. */
export function announcementMessage(announcement: Announcement): string {
  return `${announcement.route}\n${announcement.id}\n${announcement.frame}`;
}

/** Parses an announcement published by lua/append_events.lua; undefined when malformed. */
export function parseAnnouncement(message: string): Announcement | undefined {
  const first = message.indexOf('\n');
  const second = first < 0 ? -1 : message.indexOf('\n', first + 1);
  if (second < 0) return undefined;
  return { route: message.slice(0, first), id: message.slice(first + 1, second), frame: message.slice(second + 1) };
}
