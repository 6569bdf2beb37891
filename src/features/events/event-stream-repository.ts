import { DAY_MS } from '../../platform/core/dates.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import type { Announcement, StoredEvent } from './stored-event.js';
import { messageFrame, parseMessageRef, type MessageView } from './message-frames.js';
import type { Message } from '../matches/index.js';
import { poolOfKey, spectatorStreamKeys, type StreamKeys } from '../../platform/redis/keys.js';
import { screenSpectatorFrames } from './spectator-screen.js';
import { findMessages } from '../matches/index.js';
import { profileFrames } from './profile-frames.js';
import type { Scripts } from '../../platform/redis/scripts.js';

/**
 * One entry to append: `body` is the client frame as JSON without its id; `route` is announced with it.
 * `message` marks a message's event: the stream keeps only this reference to the message in its thread
 * (`view` says whose view the frame is), never the body.
 */
export type StreamAppend = {
  target: StreamKeys;
  route: string;
  maxLength: number;
  body: string;
  message?: { view: MessageView; ref: string };
  /** An event showing profiles: the stream keeps its spec (field `p`), and reading builds the frame with the profiles as they are then. */
  profiles?: string;
  tally?: { type: string; at: string };
};

/** Counts an appended event that asked for it (`tally`): see SpectatorTally. */
export type CountEvent = (type: string, at: string) => Promise<void>;

/** How long a outbox step's mark is kept after the step last ran (see lua/append_event-2.lua). */
export const STEP_MARK_MS = 15 * 60 * 1000;

type RawEntry = [string, string[]];

/**
 * Event streams in Redis: appending (one Lua call per stream, in the stream's slot: trimmed by age and
 * length, announced on the slot's sharded pub/sub channel) and reading back after an entry id for replay.
 * A message's entry refers to the message in its thread; reading builds its frame from there and skips
 * the entry once the thread no longer holds the message.
 */
export class EventStreams {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly retentionMs = DAY_MS,
    private readonly countEvent?: CountEvent,
    private readonly stepMarkMs = STEP_MARK_MS,
  ) {}

  /**
   * Appends one entry; returns its id, or '' when nothing was appended. With a `stepId` (a outbox step
   * of a committed write) the entry is appended once however often the step runs. An entry that asks to
   * be counted (`tally`) is counted by `count`, once it is appended.
   */
  async append(entry: StreamAppend, stepId = ''): Promise<string> {
    const { target, message, profiles } = entry;
    return this.scripts.runAcknowledged(
      'append_event',
      [target.stream, target.applied],
      [stepId, this.retentionMs, entry.maxLength, target.channel, entry.route, entry.body, message?.view ?? (profiles ? 'p' : 'e'), this.stepMarkMs, message?.ref ?? profiles ?? ''],
    );
  }

  /**
   * Counts an appended entry that asked for it (`tally`). Outside the append's script: a figure for people
   * to read, at worst one short after a crash. Never throws.
   */
  async count(entry: StreamAppend): Promise<void> {
    if (entry.tally && this.countEvent) await this.countEvent(entry.tally.type, entry.tally.at).catch(() => undefined);
  }

  /** Up to `count` events of `key` with an id strictly after `afterId`, oldest first (fewer: the stream ends there). */
  async after(key: string, afterId: string, count: number): Promise<StoredEvent[]> {
    return withIds(await eventBodiesAfter(this.redis, key, afterId, count));
  }

  /** The id of the newest entry of `key`; undefined when it holds none. */
  async lastId(key: string): Promise<string | undefined> {
    const [newest] = await this.redis.xrevrange(key, '+', '-', 'COUNT', 1);
    return newest?.[0];
  }

  /**
   * When more than `limit` entries of `key` are newer than `afterId`, the ids of the oldest of the newest
   * `limit` and of the entry just before it (lua/replay_window-1.lua: only the ids leave Redis).
   */
  async window(key: string, afterId: string, limit: number): Promise<{ first: string; before: string } | undefined> {
    return this.scripts.run('replay_window', [key], [afterId, limit]);
  }
}

/** An event as stored: its id and its frame without the id. */
export type EventBody = { id: string; body: string };

/** Up to `count` events of `key` after `afterId`, oldest first, each with its frame without the id (fewer: the stream ends there). */
export function eventBodiesAfter(redis: RedisClient, key: string, afterId: string, count: number): Promise<EventBody[]> {
  return gather(redis, key, count, (from, want) => redis.xrange(key, `(${from}`, '+', 'COUNT', want), afterId);
}

const withIds = (events: EventBody[]): StoredEvent[] => events.map(({ id, body }) => ({ id, frame: frameWithId(id, body) }));

/**
 * Reads pages of entries from `from` on until `count` events are found or the stream ends: entries whose
 * message is gone are skipped, so a short answer still means the end.
 */
async function gather(redis: RedisClient, key: string, count: number, page: (from: string, want: number) => Promise<RawEntry[]>, from: string): Promise<EventBody[]> {
  const out: EventBody[] = [];
  while (out.length < count) {
    const want = count - out.length;
    const entries = await page(from, want);
    out.push(...(await bodiesOf(redis, key, entries)));
    if (entries.length < want) break;
    from = entries[entries.length - 1]![0];
  }
  return out;
}

/**
 * The frames (without ids) of stream entries: a message's built from its thread, left out once the thread
 * no longer holds it; an event showing profiles built from its spec with the profiles as they are now,
 * left out once one of its accounts is gone; on the spectator stream, less those showing a suspended agent.
 */
async function bodiesOf(redis: RedisClient, key: string, entries: RawEntry[]): Promise<EventBody[]> {
  const refs = entries.flatMap(([, [field, value]]) => (field === 'u' || field === 's' ? [parseMessageRef(value ?? '')] : [])).filter((ref) => ref !== undefined);
  const [messages, profiles] = await Promise.all([
    refs.length > 0 ? findMessages(redis, poolOfKey(key), refs) : new Map<number, Message>(),
    profileFrames(redis, key, entries.flatMap(([id, [field, value]]) => (field === 'p' && value ? [{ id, spec: value }] : []))),
  ]);
  const out: EventBody[] = [];
  for (const [id, [field, value = '{}']] of entries) {
    if (field === 'u' || field === 's') {
      const ref = parseMessageRef(value);
      const message = ref && messages.get(ref.messageId);
      if (message) out.push({ id, body: messageFrame(field, message) });
    } else if (field === 'p') {
      const body = profiles.get(id);
      if (body) out.push({ id, body });
    } else {
      out.push({ id, body: value });
    }
  }
  return key === spectatorStreamKeys().stream ? screenSpectatorFrames(redis, out) : out;
}

/** The frame JSON with `"id"` spliced in first (the same construction as lua/append_event-2.lua). */
export function frameWithId(id: string, body: string): string {
  return body.length > 2 ? `{"id":"${id}",${body.slice(1)}` : `{"id":"${id}"}`;
}

/** An announcement as lua/append_event-2.lua publishes it: route, id and frame, one per line. */
export function announcementMessage(announcement: Announcement): string {
  return `${announcement.route}\n${announcement.id}\n${announcement.frame}`;
}

/** Parses an announcement published by lua/append_event-2.lua; undefined when malformed. */
export function parseAnnouncement(message: string): Announcement | undefined {
  const first = message.indexOf('\n');
  const second = first < 0 ? -1 : message.indexOf('\n', first + 1);
  if (second < 0) return undefined;
  return { route: message.slice(0, first), id: message.slice(first + 1, second), frame: message.slice(second + 1) };
}
