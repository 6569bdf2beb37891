import { errors } from '../../platform/core/errors.js';
import { matchView, type Match, type MatchView } from '../matches/index.js';
import { decodeCard, fromStored, publicProfile, type ProfileSource } from '../accounts/index.js';
import { afterAnswer } from '../../platform/core/after-answer.js';
import { SWIPE_OUTCOMES, type SwipeKind } from './swipe-schemas.js';
import type { Pool } from '../../platform/core/pool.js';
import type { Principal } from '../../platform/core/principal.js';
import type { MatchRepository } from '../matches/index.js';
import type { StoredOutcome, RecordedSwipe, SwipeRepository } from './swipe-repository.js';
import type { UserRecord } from '../accounts/index.js';
import type { Outbox } from '../../platform/outbox/outbox.js';
import type { Known } from '../matches/index.js';
import { retryAfterSeconds } from '../../platform/limits/account-limits.js';
import { DEFAULT_CONFIG } from '../../config.js';
import { duration } from '../../platform/core/dates.js';

export type SwipeOutcomeName = (typeof SWIPE_OUTCOMES)[number];

/** The answer of an undone pass. */
export type UndoResult = { user_id: number; undone: 'pass'; passed_at: string; note: string };

export type LikeResult = {
  like: { from_user_id: number; to_user_id: number; kind: SwipeKind; created_at: string };
  matched: boolean;
  match: MatchView | null;
  outcome: SwipeOutcomeName;
  note: string;
};

const OUTCOME: Record<StoredOutcome, SwipeOutcomeName> = {
  none: 'recorded',
  created: 'matched',
  existing: 'already_matched',
  kept: 'match_kept',
  ended: 'pair_ended',
};

function noteFor(outcome: StoredOutcome, kind: SwipeKind, matchId: number | null): string {
  switch (outcome) {
    case 'created':
      return 'You like each other: this created the match; say hello with POST /api/v1/matches/{match.id}/messages.';
    case 'existing':
      return 'You were already matched: nothing changed, and the existing match is returned.';
    case 'kept':
      return `The pass is recorded, but your match ${matchId} with this user stays: a swipe never ends a match. To unmatch, DELETE /api/v1/matches/${matchId}.`;
    case 'ended':
      return 'The swipe is recorded, but nothing else happens: you two were unmatched, and an unmatched pair never matches again.';
    case 'none':
      return kind === 'pass'
        ? 'The pass is recorded; this user leaves your feed until the pass expires. A mistake? DELETE /api/v1/likes/{user_id} undoes your last pass within a few minutes.'
        : 'The like is recorded; you match when this user likes you back (you will get a match.created event).';
  }
}

/** A swipe recorded (or replayed), as its listener is told of it. */
export type SwipeSignal = {
  pool: Pool;
  swiperId: number;
  targetId: number;
  kind: SwipeKind;
  outcome: SwipeOutcomeName;
  /** The target as stored, read with the swipe. */
  target: string;
  /** An earlier request with the same Idempotency-Key did the work: nothing new was written. */
  replay: boolean;
  /** The target was in the swiper's feed, which has room now. */
  leftFeed: boolean;
};

/**
 * Told of every swipe recorded or replayed, right before its answer is written: discovery learns the
 * swiper's taste from it (not from a replay), lifts a liker in its target's feed and gives a feed that
 * lost an entry its room. The listener does that work after the answer and handles its own failures: the
 * swipe stands whatever it does.
 */
export interface SwipeListener {
  swiped(signal: SwipeSignal): void;
}

const USER_NOT_FOUND_HINT = 'Pass a user id (user.id of a feed entry, or id of a browse item), not a match id.';

/** Swipes: like, pass, super like; a mutual like makes a match. */
export class SwipeService {
  constructor(
    private readonly swipes: SwipeRepository,
    private readonly matches: MatchRepository,
    private readonly outbox: Outbox<Known>,
    /** How long after a pass it can still be undone, ms. */
    private readonly undoWindowMs: number = DEFAULT_CONFIG.UNDO_WINDOW_SECONDS * 1000,
    private readonly listener?: SwipeListener,
  ) {}

  /**
   * Undoes the caller's last pass, on `targetId`, within the undo window: the target is back in the
   * caller's feed at once. Only a pass, only the last one, only in the window; an id the caller has no
   * swipe on (another pool's among them) is a 404.
   */
  async undoPass({ userId, pool }: Principal, targetId: number): Promise<UndoResult> {
    const reply = await this.swipes.undoPass(pool, userId, targetId, new Date(), this.undoWindowMs);
    const window = duration(Math.round(this.undoWindowMs / 1000));
    switch (reply.status) {
      case 'limited':
        throw errors.rateLimited(retryAfterSeconds(reply.retryAfterMs), 'swipes from this account');
      case 'none':
        throw errors.notFound('swipe of yours on this user', 'Pass the user id of someone you passed on (a pass that expired is gone already).');
      case 'not_pass':
        throw errors.cannotUndo(
          'not_a_pass',
          `Your swipe on this user is a ${reply.kind}, and only a pass can be undone; a like stays (to end a match, DELETE /api/v1/matches/{id}).`,
        );
      case 'not_last':
        throw errors.cannotUndo(
          'not_last_pass',
          `Only your most recent pass can be undone, and it is the one on user ${reply.lastTargetId}. To meet this user anyway, like them: POST /api/v1/likes/${targetId}?kind=like replaces the pass.`,
        );
      case 'untimed':
      case 'too_old':
        throw errors.cannotUndo(
          'window_passed',
          `A pass can be undone for ${window} after it, and this one is older. To meet this user anyway, like them: POST /api/v1/likes/${targetId}?kind=like replaces the pass (or wait for the pass to expire).`,
        );
      case 'undone':
        return {
          user_id: targetId,
          undone: 'pass',
          passed_at: new Date(reply.passedAtMs).toISOString(),
          note: 'The pass is undone: this user is back in your feed, as if you had never swiped on them.',
        };
    }
  }

  /**
   * Records the caller's swipe on `targetId` (in the caller's pool only; a suspended account is answered as
   * absent, 404). The decision is one Lua call on the pair; its outbox steps (a new match in both users'
   * lists, the events) were committed with it and are in place before the answer (on an Idempotency-Key
   * replay too, in case the first attempt stopped before completing them); their webhook deliveries, the
   * spectator tally and the record's deletion follow the answer. Profiles are read only when an
   * existing match is shown; what discovery learns from the swipe is told after the answer.
   */
  async swipe({ userId, pool }: Principal, targetId: number, kind: SwipeKind, idempotencyKey?: string): Promise<LikeResult> {
    if (targetId === userId) throw errors.invalidField('user_id', 'is your own id: you cannot swipe on yourself');
    const recorded = await this.swipes.record(pool, userId, targetId, kind, new Date(), idempotencyKey);
    if (recorded.status === 'not_found') throw errors.notFound('user in your pool with this id', USER_NOT_FOUND_HINT);
    if (recorded.status === 'rate_limited') throw errors.rateLimited(retryAfterSeconds(recorded.retryAfterMs), 'swipes from this account');
    if (recorded.status === 'key_reused') {
      const { first } = recorded;
      throw errors.idempotencyKeyReused(
        first.targetId !== targetId
          ? `target (it was first sent with POST /api/v1/likes/${first.targetId}?kind=${first.kind})`
          : `kind (it was first sent with kind=${first.kind})`,
      );
    }

    const like = { from_user_id: userId, to_user_id: targetId, kind: recorded.kind, created_at: recorded.createdAt };
    const { pending, outcome } = recorded;
    const told = { outcome: OUTCOME[outcome], note: noteFor(outcome, recorded.kind, recorded.matchId) };
    let result: LikeResult;
    if (outcome === 'none' || outcome === 'kept' || outcome === 'ended') {
      if (pending) await this.outbox.completeEffects(pool, pending);
      result = { like, matched: false, match: null, ...told };
    } else {
      // Showing a match needs the target's profile (its card alone); a new match's events need both accounts.
      const match = await this.matchOf(pool, recorded, [userId, targetId]);
      let target: ProfileSource;
      if (pending) {
        const users = this.usersOf(pool, recorded, userId, targetId);
        await this.outbox.completeEffects(pool, pending, { users });
        target = users.get(targetId)!;
      } else {
        target = decodeCard(targetId, recorded.accounts.target);
      }
      result = { like, matched: match !== undefined, match: match ? matchView(match, publicProfile(target)) : null, ...told };
    }
    // What the swipe tells discovery (taste, the liker's lift, a feed with room) need not delay the answer.
    if (this.listener) {
      this.listener.swiped({
        pool,
        swiperId: userId,
        targetId,
        kind: recorded.kind,
        outcome: told.outcome,
        target: recorded.accounts.target,
        replay: recorded.replay,
        leftFeed: recorded.leftFeed,
      });
    } else if (recorded.leftFeed) {
      afterAnswer(() => this.swipes.feedHasRoom(pool, userId));
    }
    return result;
  }

  /** Both users as the swipe read them (the swiper for a like): what a match shows and its events need. */
  private usersOf(pool: Pool, recorded: Extract<RecordedSwipe, { status: 'recorded' }>, userId: number, targetId: number): Map<number, UserRecord> {
    const { swiper, target } = recorded.accounts;
    const users = new Map([[targetId, fromStored(pool, targetId, target)]]);
    if (swiper !== null) users.set(userId, fromStored(pool, userId, swiper));
    return users;
  }

  private async matchOf(pool: Pool, recorded: Extract<RecordedSwipe, { status: 'recorded' }>, pair: [number, number]): Promise<Match | undefined> {
    if ((recorded.outcome !== 'created' && recorded.outcome !== 'existing') || recorded.matchId === null) return undefined;
    if (recorded.outcome === 'created' && !recorded.replay) {
      return {
        id: recorded.matchId,
        userIds: [Math.min(...pair), Math.max(...pair)],
        createdAt: recorded.createdAt,
        sharedInterests: recorded.sharedInterests ?? [],
        lastMessage: null,
        endedAt: null,
      };
    }
    return this.matches.find(pool, recorded.matchId, { includeEnded: true });
  }
}
