import type { Pool } from '../../../platform/core/pool.js';
import { ReadCache } from '../../../platform/core/read-cache.js';
import type { TokenPrincipal } from '../../../platform/core/principal.js';
import { userStreamKeys } from '../../../platform/redis/keys.js';
import type { Logger } from '../../../platform/logger.js';
import type { LiveEvents } from '../live-events.js';
import { userTopic } from '../event-topics.js';
import { EPHEMERAL_ID } from './event-relay.js';
import type { Socket } from './socket-data.js';
import type { Announcement } from '../stored-event.js';

/** The two users of a current match of the pool; undefined when it is unknown or ended. */
export type MatchUsers = (pool: Pool, matchId: number) => Promise<readonly [number, number] | undefined>;

export type TypingPolicy = {
  /** At most one typing frame is relayed per sender and match in this long; the others are dropped. */
  throttleMs: number;
  /** A sender may type in at most this many matches per throttle window; beyond, frames are dropped. */
  maxMatches: number;
  /**
   * How long a match's users, once looked up, are kept. The end of a match (`match.ended`, heard by every
   * process) forgets them at once, and a process that may have missed one looks up afresh.
   */
  membershipTtlMs: number;
};

export const DEFAULT_TYPING_POLICY: TypingPolicy = { throttleMs: 2_500, maxMatches: 16, membershipTtlMs: 10_000 };

/** The longest frame a client may send: `{"type":"typing","match_id":<id>}` is far below it. */
const MAX_FRAME_BYTES = 256;
const MEMBERSHIP_CACHE_LIMIT = 10_000;

const BAD_TYPING = JSON.stringify({
  type: 'error',
  data: { code: 'validation_failed', message: 'A typing frame is {"type": "typing", "match_id": <the id of one of your matches>}.' },
});

/** The answer to a typing frame naming a match the sender is not in (unknown, another's, or ended). */
const notYourMatch = (matchId: number) =>
  JSON.stringify({
    type: 'error',
    data: {
      code: 'not_found',
      match_id: matchId,
      message: `No current match of yours has id ${matchId}, so the typing frame went to nobody: send the id of one of your matches (GET /api/v1/matches lists them; a match id is not a user id).`,
    },
  });

/**
 * `{"type":"typing","match_id":N}` from a user's socket: relayed live, to the other user of that match
 * only, on every process (through the relay's pub/sub, never a stream: not stored, never replayed).
 * Throttled per sender and match, and bounded in how many matches one sender types in at once; a frame
 * from someone not in the match (or naming one that ended) goes to nobody, and the sender is answered with
 * a `not_found` error frame. Other frames are ignored, as they always were.
 *
 * Once a match has ended (an unmatch, a block, an account leaving), no typing frame of it reaches anyone:
 * every process hears its `match.ended` on the users' channels and forgets the match's users at once, and
 * drops a typing frame of that match announced after it on the same channel (one looked up before the
 * end included). A process whose subscriber connection was lost may have missed the end: until it is back
 * it looks the users up for every frame, and once back it forgets every match's users.
 */
export class TypingFrames {
  /** Per sender (the user's topic), the matches typed in lately → when the last frame was relayed. */
  private readonly recent = new Map<string, Map<number, number>>();
  /** A match's users, once looked up, for `membershipTtlMs`. */
  private readonly members: ReadCache;
  /** Matches whose end this process heard ("<pool>:<id>" → when), kept `membershipTtlMs`, the life of a lookup made before. */
  private readonly ended = new Map<string, number>();
  private readonly policy: TypingPolicy;

  constructor(
    private readonly matchUsers: MatchUsers,
    private readonly live: LiveEvents,
    private readonly logger: Logger,
    policy: Partial<TypingPolicy> = {},
  ) {
    this.policy = { ...DEFAULT_TYPING_POLICY, ...policy };
    this.members = new ReadCache(this.policy.membershipTtlMs, MEMBERSHIP_CACHE_LIMIT);
  }

  /** A frame a client sent (uWS's buffer is read before this returns). */
  received(ws: Socket, message: ArrayBuffer, isBinary: boolean): void {
    const data = ws.getUserData();
    if (!data.claims || data.closing || isBinary || message.byteLength > MAX_FRAME_BYTES) return;
    const frame = parse(Buffer.from(message).toString('utf8'));
    if (frame?.type !== 'typing') return;
    const matchId = frame.match_id;
    if (typeof matchId !== 'number' || !Number.isSafeInteger(matchId) || matchId < 1) {
      ws.send(BAD_TYPING);
      return;
    }
    if (!this.take(data.topic, matchId)) return;
    this.relay(data.claims, matchId)
      .then((relayed) => {
        // uWS's socket must not be touched once closed; `data` says so, set by its close handler
        if (!relayed && !data.closed && !data.closing) ws.cork(() => ws.send(notYourMatch(matchId)));
      })
      .catch((error: unknown) => this.logger.debug({ err: error, matchId }, 'typing frame not relayed'));
  }

  /**
   * An announcement this process heard, before it is relayed (EventRelay.screen): a `match.ended` forgets
   * the match's users; a typing frame of a match whose end was heard is dropped (false).
   */
  heard(event: Announcement): boolean {
    const pool = poolOfRoute(event.route);
    if (!pool) return true;
    if (event.id === EPHEMERAL_ID) {
      const matchId = matchOfFrame(event.frame, 'typing');
      return matchId === undefined || !this.hasEnded(`${pool}:${matchId}`);
    }
    if (!event.frame.includes(MATCH_ENDED)) return true;
    const matchId = matchOfFrame(event.frame, 'match.ended');
    if (matchId !== undefined) this.matchEnded(`${pool}:${matchId}`);
    return true;
  }

  /** Announcements may have been missed (the subscriber connection was lost): every match's users are looked up again. */
  forgetMembers(): void {
    this.members.clear();
  }

  /** The sender has no socket left in this process: its throttle state goes. */
  forget(topic: string): void {
    this.recent.delete(topic);
  }

  /** Whether this sender may have a frame relayed for `matchId` now (and counts it). */
  private take(topic: string, matchId: number): boolean {
    const now = Date.now();
    let recent = this.recent.get(topic);
    if (!recent) this.recent.set(topic, (recent = new Map<number, number>()));
    for (const [id, at] of recent) if (now - at >= this.policy.throttleMs) recent.delete(id);
    if (recent.has(matchId) || recent.size >= this.policy.maxMatches) return false;
    recent.set(matchId, now);
    return true;
  }

  private matchEnded(key: string): void {
    this.members.delete(key);
    const now = Date.now();
    for (const [old, at] of this.ended) {
      if (now - at < this.policy.membershipTtlMs && this.ended.size < MEMBERSHIP_CACHE_LIMIT) break;
      this.ended.delete(old);
    }
    this.ended.delete(key);
    this.ended.set(key, now);
  }

  private hasEnded(key: string): boolean {
    const at = this.ended.get(key);
    return at !== undefined && Date.now() - at < this.policy.membershipTtlMs;
  }

  /** Announces the frame to the match's other user; false when the sender is not in the match, or it has ended. */
  private async relay(sender: TokenPrincipal, matchId: number): Promise<boolean> {
    const users = await this.usersOf(sender.pool, matchId);
    if (!users || (users[0] !== sender.userId && users[1] !== sender.userId)) return false;
    if (this.hasEnded(`${sender.pool}:${matchId}`)) return false;
    const other = users[0] === sender.userId ? users[1] : users[0];
    const frame = JSON.stringify({ type: 'typing', data: { match_id: matchId, user_id: sender.userId } });
    await this.live.announce(userStreamKeys(sender.pool, other).channel, { route: userTopic(sender.pool, other), id: EPHEMERAL_ID, frame });
    return true;
  }

  private usersOf(pool: Pool, matchId: number): Promise<readonly [number, number] | undefined> {
    // While this process may be missing announcements, an end could go unheard: nothing is kept.
    if (!this.live.listening) return this.matchUsers(pool, matchId);
    return this.members.get(`${pool}:${matchId}`, () => this.matchUsers(pool, matchId));
  }
}

/** What a `match.ended` frame holds (the stored frame's top-level type; JSON escapes any such text inside a string). */
const MATCH_ENDED = '"type":"match.ended"';

/** The pool of a user's topic (`user/<pool>/<id>`); undefined for any other route. */
function poolOfRoute(route: string): Pool | undefined {
  const [kind, pool] = route.split('/', 3);
  return kind === 'user' && (pool === 'agent' || pool === 'member') ? pool : undefined;
}

/** The match a relayed frame of `type` names (`{"type": <type>, "data": {"match_id": N, ...}}`); undefined for any other. */
function matchOfFrame(frame: string, type: string): number | undefined {
  const parsed = parse(frame);
  if (parsed?.type !== type || !('data' in parsed)) return undefined;
  const data: unknown = parsed.data;
  const matchId = typeof data === 'object' && data !== null && 'match_id' in data ? data.match_id : undefined;
  return typeof matchId === 'number' ? matchId : undefined;
}

function parse(text: string): { type?: unknown; match_id?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
