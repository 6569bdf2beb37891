import { optionalReplyText, replyList, replyText } from '../../platform/redis/raw-reply.js';
import type { SwipeKind } from './swipe-schemas.js';

/**
 * What a swipe counted and applied at once replaced ('' where nothing was), as lua/begin_swipe-6.lua answers it:
 * `kind` is the swipe list's value (a kind, or a pass's time).
 */
export type SwipeReplaced = { kind: string; passedAt: string; feedScore: string; newPassAt: string };

/**
 * A swipe's outcome as lua/record_swipe-5.lua stores it (the API's outcome: recorded, matched, already_matched,
 * match_kept, pair_ended): none, created, existing (returned as it is), kept (a pass
 * on a current match: the match stays), ended (a like on a pair whose match was ended: it never matches again).
 */
export type StoredOutcome = 'none' | 'created' | 'existing' | 'kept' | 'ended';

/** What lua/undo_pass-3.lua did (see its header), with the ms until the swipe limit's window ends. */
export type UndoPassReply =
  | { status: 'limited' | 'none' | 'untimed'; retryAfterMs: number }
  | { status: 'not_pass'; retryAfterMs: number; kind: SwipeKind }
  | { status: 'not_last'; retryAfterMs: number; lastTargetId: number }
  | { status: 'too_old' | 'undone'; retryAfterMs: number; passedAtMs: number };

const textOrEmpty = (raw: unknown) => optionalReplyText(raw) ?? '';

/**
 * lua/begin_swipe-6.lua. `heldBy`: the fingerprint of the request holding the swipe's Idempotency-Key, when
 * another does; `hidden`: a block keeps the target from the swiper; `replaced`: when the swipe was counted and
 * applied in one call, what it replaced, for lua/take_back_swipe-3.lua ('' where there was nothing; `passedAt`:
 * the time it gave a pass).
 */
export function decodeBeginSwipe(raw: unknown) {
  const [allowed, left, inFeed, held, hidden, wasKind, wasPassed, wasInFeed, passedAt] = replyList(raw);
  const replaced: SwipeReplaced | undefined =
    Array.isArray(raw) && raw.length > 5
      ? { kind: textOrEmpty(wasKind), passedAt: textOrEmpty(wasPassed), feedScore: textOrEmpty(wasInFeed), newPassAt: textOrEmpty(passedAt) }
      : undefined;
  return {
    allowed: allowed === 1,
    retryAfterMs: Number(left),
    leftFeed: inFeed === 1,
    heldBy: optionalReplyText(held),
    hidden: hidden === 1,
    ...(replaced ? { replaced } : {}),
  };
}

/** lua/record_swipe-5.lua: its status, the swipe's record ("<kind>|<created_at>|<outcome>|<match id>|<pending id>"), the new match's shared interests, the pending record. */
export function decodeRecordSwipe(raw: unknown) {
  const [status, record, shared, pending] = replyList(raw);
  const [kind, createdAt = '', outcome, matchId, pendingId = ''] = replyText(record).split('|') as [SwipeKind, string?, StoredOutcome?, string?, string?];
  return {
    status: status === 'ok' ? ('ok' as const) : status === 'key_reused' ? ('key_reused' as const) : ('replay' as const),
    kind,
    createdAt,
    outcome: outcome ?? 'none',
    matchId: matchId ? Number(matchId) : null,
    pendingId,
    sharedInterests: shared ? (JSON.parse(replyText(shared)) as string[]) : null,
    ...(pending ? { pendingRecord: replyText(pending) } : {}),
  };
}

export function decodeUndoPass(raw: unknown): UndoPassReply {
  const [status, left, detail] = replyList(raw);
  const retryAfterMs = Number(left);
  switch (status) {
    case 'not_pass':
      return { status, retryAfterMs, kind: replyText(detail) as SwipeKind };
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
