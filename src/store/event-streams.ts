import type { RedisClient } from './redis.js';
import type { Announcement, StoredEvent } from '../domain/stored-event.js';
import type { StreamKeys } from './keys.js';
import type { Scripts } from './scripts.js';

/**
 * One entry to append: `body` is the client frame as JSON without its id; `route` is announced with it.
 * `threadOf` names the match of a message (not appended once the reader's thread of it is closed).
 */
export type StreamAppend = { target: StreamKeys; route: string; maxLength: number; body: string; threadOf?: number; tally?: { type: string; at: string } };

/** Counts an appended event that asked for it (`tally`): see SpectatorTally. */
export type CountEvent = (type: string, at: string) => Promise<void>;

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Event streams in Redis: appending (one Lua call per stream, in the stream's slot: trimmed by age and
 * length, announced on the slot's sharded pub/sub channel) and reading back after an entry id for replay.
 */
export class EventStreams {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly retentionMs = DAY_MS,
    private readonly countEvent?: CountEvent,
  ) {}

  /**
   * Appends one entry; returns its id, or '' when nothing was appended. With a `stepId` (a follow-up step
   * of a committed write) the entry is appended once however often the step runs.
   */
  async append(entry: StreamAppend, stepId = ''): Promise<string> {
    const { target, tally } = entry;
    const threadOf = entry.threadOf ?? 0;
    const id = await this.scripts.runHot<string>(
      'append_event',
      [target.stream, target.applied, target.endedMatches, target.thread(threadOf)],
      [stepId, this.retentionMs, entry.maxLength, target.channel, entry.route, entry.body, entry.threadOf ?? ''],
    );
    // Counted after the append, outside its script: a figure for people to read, at worst one short after a crash.
    if (id && tally && this.countEvent) await this.countEvent(tally.type, tally.at).catch(() => undefined);
    return id;
  }

  /** Up to `count` events of `key` with an id strictly after `afterId`, oldest first. */
  async after(key: string, afterId: string, count: number): Promise<StoredEvent[]> {
    const entries = (await this.redis.xrange(key, `(${afterId}`, '+', 'COUNT', count)) as Array<[string, string[]]>;
    return toEvents(entries);
  }

  /**
   * When more than `limit` entries of `key` are newer than `afterId`, the ids of the oldest of the newest
   * `limit` and of the entry just before it (lua/replay_window.lua: only the ids leave Redis).
   */
  async window(key: string, afterId: string, limit: number): Promise<{ first: string; before: string } | undefined> {
    const ids = await this.scripts.run<string[]>('replay_window', [key], [afterId, limit]);
    return ids.length === 2 ? { first: ids[0]!, before: ids[1]! } : undefined;
  }
}

function toEvents(entries: Array<[string, string[]]>): StoredEvent[] {
  return entries.map(([id, fields]) => ({ id, frame: frameWithId(id, fields[fields.indexOf('e') + 1] ?? '{}') }));
}

/** The frame JSON with `"id"` spliced in first (the same construction as lua/append_event.lua). */
export function frameWithId(id: string, body: string): string {
  return body.length > 2 ? `{"id":"${id}",${body.slice(1)}` : `{"id":"${id}"}`;
}

/** An announcement as lua/append_event.lua publishes it: route, id and frame, one per line. */
export function announcementMessage(announcement: Announcement): string {
  return `${announcement.route}\n${announcement.id}\n${announcement.frame}`;
}

/** Parses an announcement published by lua/append_event.lua; undefined when malformed. */
export function parseAnnouncement(message: string): Announcement | undefined {
  const first = message.indexOf('\n');
  const second = first < 0 ? -1 : message.indexOf('\n', first + 1);
  if (second < 0) return undefined;
  return { route: message.slice(0, first), id: message.slice(first + 1, second), frame: message.slice(second + 1) };
}
