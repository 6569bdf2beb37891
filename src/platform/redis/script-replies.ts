import type { FeedPosition } from '../core/page-positions.js';

/** A swipe's kind as lua/record_swipe-5.lua records it (the swipes feature's SwipeKind). */
type StoredSwipeKind = 'like' | 'pass' | 'super_like';

/**
 * What each Lua script answers, decoded from its raw reply into typed values: one decoder per script, by
 * the name callers use. A raw reply is what ioredis and the hot connection both give: integers as
 * numbers, bulk strings as strings, nil (a Lua false) as null, tables as arrays. Each script's header in
 * lua/ says what it returns.
 */
export const SCRIPT_REPLIES = {
  /** The new entry's id, or '' when nothing was appended. */
  append_event: (raw) => text(raw),
  append_message: (raw) => appendMessage(list(raw)),
  /** 'added' or 'existing' with when the block was made (ms), or 'full' when the account's cap is reached. */
  add_block: (raw) => {
    const [added, since] = list(raw);
    return added === -1 ? ({ status: 'full' } as const) : ({ status: added === 1 ? 'added' : 'existing', since: Number(since) } as const);
  },
  /**
   * `heldBy`: the fingerprint of the request holding the swipe's Idempotency-Key, when another does; `hidden`: a
   * block keeps the target from the swiper; `replaced`: when the swipe was counted and applied in one call, what
   * it replaced, for lua/take_back_swipe-3.lua ('' where there was nothing; `passedAt`: the time it gave a pass).
   */
  begin_swipe: (raw) => {
    const [allowed, left, inFeed, held, hidden, wasKind, wasPassed, wasInFeed, passedAt] = list(raw);
    return {
      allowed: allowed === 1,
      retryAfterMs: Number(left),
      leftFeed: inFeed === 1,
      heldBy: held === null || held === undefined ? undefined : text(held),
      hidden: hidden === 1,
      ...(raw !== null && Array.isArray(raw) && raw.length > 5
        ? {
            replaced: { kind: optionalText(wasKind), passedAt: optionalText(wasPassed), feedScore: optionalText(wasInFeed), newPassAt: optionalText(passedAt) },
          }
        : {}),
    };
  },
  /** The count after the change, undefined when the count is not built yet. */
  /** The counter after the reservation (the last value reserved). */
  reserve_ids: (raw) => Number(raw),
  adjust_pool_size: (raw) => (raw === null || raw === undefined ? undefined : Number(raw)),
  browse: (raw) => {
    const [stop, examined, ...ids] = list(raw);
    return { ...(stop ? { stopId: Number(stop) } : {}), examined: Number(examined), ids: ids.map(Number) };
  },
  /** The pair's match state: a match id, "ended:<id>", or '' when none. */
  block_pair: (raw) => text(raw),
  claim_email: (raw) => raw === 1,
  /** Undefined when the Idempotency-Key is the request's own, else the fingerprint of the request holding it. */
  claim_idempotency_key: (raw) => (raw === null || raw === undefined ? undefined : text(raw)),
  /** Undefined when claimed, else the ms until the ping holding the claim lets go at the latest. */
  claim_webhook_ping: (raw) => (raw === 0 ? undefined : Number(raw)),
  close_report: (raw) => raw === 1,
  create_user: (raw) => raw === 1,
  create_webhook: (raw) => raw === 1,
  /** The new report's id, or why it was refused (nothing written). */
  file_report: (raw) => {
    const [status, id] = list(raw);
    return status === 'filed' ? ({ status: 'filed', id: Number(id) } as const) : ({ status: text(status) as 'reporter_full' | 'pool_full' } as const);
  },
  delete_webhook: (raw) => raw === 1,
  dropped_targets: (raw) => {
    const [cursor, ...flat] = list(raw);
    return { cursor: text(cursor) || '0', targets: ownerScores(flat) };
  },
  expire_passes: (raw) => {
    const [expired, swiped, hidden] = list(raw);
    return { expired: Number(expired), swiped: Number(swiped), hidden: Number(hidden) };
  },
  mark_blocked_by: (raw) => raw === 1,
  /** The unmatch's pending record, or undefined when the match was not the caller's to end. */
  end_match: (raw) => {
    const [ended, record] = list(raw);
    return ended === 1 && typeof record === 'string' ? record : undefined;
  },
  fixed_window_hit: (raw) => {
    const [allowed, left] = list(raw);
    return { allowed: allowed === 1, retryAfterMs: Number(left) };
  },
  /** How many entries the call changed. */
  list_match: (raw) => Number(raw),
  /** Whether the target's feed changed. */
  lift_liker: (raw) => raw === 1,
  mark_read: (raw) => markRead(list(raw)),
  /** Whether the thread is moved whole. */
  move_thread_entries: (raw) => raw === 1,
  /** How many of the swipes sent taught a taste. */
  note_swipe: (raw) => Number(raw),
  rank_feed: (raw) => {
    const [size, floor] = list(raw);
    return { size: Number(size), floor: Number(floor) };
  },
  rate_limit: (raw) => {
    const [allowed, hits, waitMs] = list(raw);
    return { allowed: allowed === 1, hits: Number(hits), waitMs: Number(waitMs) };
  },
  read_feed: (raw) => feedPage(list(raw)),
  read_feed_cards: (raw) => feedCards(list(raw)),
  record_swipe: (raw) => recordSwipe(list(raw)),
  /** Whether the swipe was taken back (false: a later swipe on the target stands). */
  take_back_swipe: (raw) => raw === 1,
  release_webhook_ping: (raw) => raw === 1,
  remove_block: (raw) => raw === 1,
  replay_window: (raw) => {
    const [first, before] = list(raw);
    return first && before ? { first: text(first), before: text(before) } : undefined;
  },
  take_socket_lease: (raw) => {
    const [taken, held] = list(raw);
    return { taken: taken === 1, held: Number(held) };
  },
  spread_into_feeds: (raw) => {
    const [changed, ...flat] = list(raw);
    return { changed: Number(changed), floors: ownerScores(flat) };
  },
  leave_account: (raw) => (raw === 1 ? 'applied' : raw === 0 ? 'changed' : 'missing'),
  /** The tokens taken out of the account's set over its cap (to revoke). */
  track_token: (raw) => {
    const flat = list(raw);
    const out: Array<{ jti: string; expMs: number }> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ jti: text(flat[i]), expMs: Number(flat[i + 1]) });
    return out;
  },
  undo_pass: (raw) => undoPass(list(raw)),
  update_profile: (raw) => (raw === 1 ? 'applied' : raw === 0 ? 'changed' : 'missing'),
  suspend_account: (raw) => suspensionStep(raw, 'already'),
  lift_suspension: (raw) => suspensionStep(raw, 'not_suspended'),
  /** {exists, suspended, the epoch field ('' when none)}. */
  /** The account as stored; null when there is none or it is suspended. */
  read_visible_account: (raw) => (raw === null || raw === undefined ? null : text(raw)),
  read_standing: (raw) => {
    const [exists, suspended, epoch] = list(raw);
    return { exists: exists === 1, suspended: suspended === 1, epoch: text(epoch) };
  },
  /** The account's new credentials epoch, or undefined when there is no such account. */
  advance_epoch: (raw) => (raw === -1 ? undefined : Number(raw)),
  /** The account's new credentials epoch, 'changed' (read again) or 'missing'. */
  change_password: (raw) => (raw === 0 ? ('changed' as const) : raw === -1 ? ('missing' as const) : Number(raw)),
  update_webhook: (raw) => raw === 1,
} satisfies Record<string, (raw: unknown) => unknown>;

export type ScriptName = keyof typeof SCRIPT_REPLIES;

/**
 * lua/suspend_account-4+.lua and lua/lift_suspension-4+.lua: 1 done, 2 nothing to do, 0 the account changed
 * meanwhile, -1 no account; with the account's credentials epoch after the step.
 */
function suspensionStep<T extends string>(raw: unknown, nothing: T): 'changed' | 'missing' | { status: 'applied' | T; epoch: number } {
  const [status, epoch] = list(raw);
  if (status === 0) return 'changed';
  if (status === -1) return 'missing';
  return { status: status === 1 ? 'applied' : nothing, epoch: Number(epoch) };
}
export type ScriptReply<N extends ScriptName> = ReturnType<(typeof SCRIPT_REPLIES)[N]>;

export function decodeReply<N extends ScriptName>(name: N, raw: unknown): ScriptReply<N> {
  return SCRIPT_REPLIES[name](raw) as ScriptReply<N>;
}

/**
 * A swipe's outcome as lua/record_swipe-5.lua stores it (the API's outcome: recorded, matched, already_matched,
 * match_kept, pair_ended): none, created, existing (returned as it is), kept (a pass
 * on a current match: the match stays), ended (a like on a pair whose match was ended: it never matches again).
 */
export type StoredOutcome = 'none' | 'created' | 'existing' | 'kept' | 'ended';

/** lua/record_swipe-5.lua: its status, the swipe's record ("<kind>|<created_at>|<outcome>|<match id>|<pending id>"), the new match's shared interests, the pending record. */
function recordSwipe([status, record, shared, pending]: unknown[]) {
  const [kind, createdAt = '', outcome, matchId, pendingId = ''] = text(record).split('|') as [StoredSwipeKind, string?, StoredOutcome?, string?, string?];
  return {
    status: status === 'ok' ? ('ok' as const) : status === 'key_reused' ? ('key_reused' as const) : ('replay' as const),
    kind,
    createdAt,
    outcome: outcome ?? 'none',
    matchId: matchId ? Number(matchId) : null,
    pendingId,
    sharedInterests: shared ? (JSON.parse(text(shared)) as string[]) : null,
    ...(pending ? { pendingRecord: text(pending) } : {}),
  };
}

/** A thread entry as a script answers it: its id and its flat fields (the matches feature's ThreadEntry). */
type StoredEntry = [id: string, fields: string[]];

type AppendMessageReply =
  | { status: 'not_found' }
  | { status: 'key_reused' }
  | { status: 'created'; entryId: string; pendingRecord: string }
  /** `json`: the message as a record written before threads were streams kept it. */
  | { status: 'replay'; entry: StoredEntry }
  | { status: 'replay'; json: string };

/**
 * lua/append_message-7.lua: {'not_found'}, {'key_reused'}, {'replay', entry id, fields} (or {'replay', message
 * JSON}) or {'ok', entry id, pending record}.
 */
function appendMessage([status, first, second]: unknown[]): AppendMessageReply {
  if (status === 'key_reused') return { status: 'key_reused' };
  if (status === 'not_found' || !first) return { status: 'not_found' };
  if (status === 'ok') return { status: 'created', entryId: text(first), pendingRecord: text(second) };
  if (Array.isArray(second)) return { status: 'replay', entry: [text(first), second.map(text)] };
  return { status: 'replay', json: text(first) };
}

type MarkReadReply =
  { status: 'not_found' } | { status: 'no_message' } | { status: 'moved' | 'unchanged'; readUpTo: number; unreadCount: number; pendingRecord?: string };

/** lua/mark_read-5.lua: {'not_found'}, {'no_message'}, {'unchanged', mark, unread} or {'moved', mark, unread, pending record}. */
function markRead([status, mark, unread, pending]: unknown[]): MarkReadReply {
  if (status === 'no_message') return { status: 'no_message' };
  if (status !== 'moved' && status !== 'unchanged') return { status: 'not_found' };
  return { status, readUpTo: Number(mark), unreadCount: Number(unread), ...(pending ? { pendingRecord: text(pending) } : {}) };
}

/**
 * lua/read_feed-4.lua: the ranked part's size, how many ranked entries follow (id, score), which of the
 * returned ids liked the account, then the entries and the rest's ids.
 */
function feedPage([rankedSize, rankedCount, liked, ...flat]: unknown[]): { rankedSize: number; positions: FeedPosition[]; likedBy: number[] } {
  const positions: FeedPosition[] = [];
  const rankedEnd = 2 * Number(rankedCount);
  for (let i = 0; i + 1 < rankedEnd; i += 2) positions.push({ part: 'r', id: Number(flat[i]), score: Number(flat[i + 1]) });
  for (let i = rankedEnd; i < flat.length; i++) positions.push({ part: 't', id: Number(flat[i]), score: 0 });
  return { rankedSize: Number(rankedSize), positions, likedBy: list(liked).map(Number) };
}

/** What lua/read_feed_cards-4.lua read of each id, as stored (null when absent). */
export type StoredFeedCard = { card: string | null; profile: string | null; taste: string | null; active: string | null };

/** lua/read_feed_cards-4.lua: when the reader's feed was ranked (ms, undefined when never or not asked), then four values per id. */
function feedCards([rankedAt, ...flat]: unknown[]): { rankedAt?: number; cards: StoredFeedCard[] } {
  const cards: StoredFeedCard[] = [];
  const value = (v: unknown) => (v === null || v === undefined ? null : text(v));
  for (let i = 0; i + 3 < flat.length; i += 4)
    cards.push({ card: value(flat[i]), profile: value(flat[i + 1]), taste: value(flat[i + 2]), active: value(flat[i + 3]) });
  return { ...(rankedAt === null || rankedAt === undefined ? {} : { rankedAt: Number(rankedAt) }), cards };
}

/** What lua/undo_pass-3.lua did (see its header), with the ms until the swipe limit's window ends. */
export type UndoPassReply =
  | { status: 'limited' | 'none' | 'untimed'; retryAfterMs: number }
  | { status: 'not_pass'; retryAfterMs: number; kind: StoredSwipeKind }
  | { status: 'not_last'; retryAfterMs: number; lastTargetId: number }
  | { status: 'too_old' | 'undone'; retryAfterMs: number; passedAtMs: number };

function undoPass([status, left, detail]: unknown[]): UndoPassReply {
  const retryAfterMs = Number(left);
  switch (status) {
    case 'not_pass':
      return { status, retryAfterMs, kind: text(detail) as StoredSwipeKind };
    case 'not_last':
      return { status, retryAfterMs, lastTargetId: Number(detail) };
    case 'too_old':
    case 'undone':
      return { status, retryAfterMs, passedAtMs: Number(detail) };
    case 'limited':
    case 'untimed':
      return { status, retryAfterMs };
    default:
      return { status: 'none', retryAfterMs };
  }
}

/** {owner, score} pairs from a flat reply [owner_1, score_1, owner_2, ...]. */
function ownerScores(flat: readonly unknown[]): Array<{ owner: number; score: number }> {
  const out: Array<{ owner: number; score: number }> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ owner: Number(flat[i]), score: Number(flat[i + 1]) });
  return out;
}

const list = (raw: unknown): unknown[] => (Array.isArray(raw) ? raw : []);

/** A string reply, '' for a nil (a Lua false). */
const optionalText = (raw: unknown): string => (raw === null || raw === undefined ? '' : text(raw));
const text = (raw: unknown): string => (typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : '');
