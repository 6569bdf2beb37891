import { DAY_MS } from '../../platform/core/dates.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import type { StreamKeys } from '../../platform/redis/keys.js';
import { replyList, replyText } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { frameWithId, type Announcement, type EventBody, type StoredEvent } from './stored-event.js';
import { FrameBuilders, WHOLE_FRAME } from './frame-builders.js';

/** lua/append_event-2.lua: the new entry's id, or '' when nothing was appended. */
const appendEvent = script('append_event', replyText);

/** lua/replay_window-1.lua: the oldest id of the window and the id just before it; undefined when at most `limit` entries are newer. */
const replayWindow = script('replay_window', (raw) => {
  const [first, before] = replyList(raw);
  return first && before ? { first: replyText(first), before: replyText(before) } : undefined;
});

/**
 * One entry to append: `body` is the client frame as JSON without its id; `route` is announced with it.
 * `stored` marks an entry that keeps a reference instead of the frame (`kind`, the entry's field: the
 * frame is built again from the reference when the entry is read, by the builder registered for it).
 * `account` is the account whose stream it is (none for the spectators').
 */
export type StreamAppend = {
  target: StreamKeys;
  route: string;
  maxLength: number;
  body: string;
  account?: number;
  stored?: { kind: string; ref: string };
  tally?: { type: string; at: string };
};

/** Counts an appended event that asked for it (`tally`): see SpectatorTallyRepository. */
export type CountEvent = (type: string, at: string) => Promise<void>;

/** How long a outbox step's mark is kept after the step last ran (see lua/append_event-2.lua). */
export const STEP_MARK_MS = 15 * 60 * 1000;

type RawEntry = [string, string[]];

/**
 * Event streams in Redis: appending (one Lua call per stream, in the stream's slot: trimmed by age and
 * length, announced on the slot's sharded pub/sub channel) and reading back after an entry id for replay.
 * An entry may keep a reference rather than its frame; reading builds the frame with `frames` (see
 * FrameBuilders) and skips the entry once what it refers to is gone.
 */
export class EventStreamRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly frames = new FrameBuilders(),
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
    const { target, stored } = entry;
    return this.scripts.runAcknowledged(
      appendEvent,
      [target.stream, target.applied],
      [stepId, this.retentionMs, entry.maxLength, target.channel, entry.route, entry.body, stored?.kind ?? WHOLE_FRAME, this.stepMarkMs, stored?.ref ?? ''],
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
    return (await this.bodiesAfter(key, afterId, count)).map(({ id, body }) => ({ id, frame: frameWithId(id, body) }));
  }

  /** As `after`, each event with its frame without the id. */
  bodiesAfter(key: string, afterId: string, count: number): Promise<EventBody[]> {
    return this.gather(key, count, (from, want) => this.redis.xrange(key, `(${from}`, '+', 'COUNT', want), afterId);
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
    return this.scripts.run(replayWindow, [key], [afterId, limit]);
  }

  /**
   * Reads pages of entries from `from` on until `count` events are found or the stream ends: entries
   * without a frame now are skipped, so a short answer still means the end.
   */
  private async gather(key: string, count: number, page: (from: string, want: number) => Promise<RawEntry[]>, from: string): Promise<EventBody[]> {
    const out: EventBody[] = [];
    while (out.length < count) {
      const want = count - out.length;
      const entries = await page(from, want);
      out.push(...(await this.frames.bodiesOf(key, entries)));
      if (entries.length < want) break;
      from = entries[entries.length - 1]![0];
    }
    return out;
  }
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
