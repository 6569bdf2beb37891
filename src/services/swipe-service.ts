import { errors } from '../domain/errors.js';
import { matchView, type Match, type MatchView } from '../domain/match.js';
import { publicProfile } from '../domain/profile.js';
import type { SwipeKind } from '../domain/swipe-kinds.js';
import type { Pool } from '../domain/pool.js';
import type { Principal } from '../domain/principal.js';
import type { MatchRepository } from '../store/match-repository.js';
import type { SwipeOutcome, SwipeRepository } from '../store/swipe-repository.js';
import type { UserRecord, UserRepository } from '../store/user-repository.js';
import type { FollowUps } from './events.js';
import { retryAfterSeconds } from './account-limits.js';

export type LikeResult = {
  like: { from_user_id: number; to_user_id: number; kind: SwipeKind; created_at: string };
  matched: boolean;
  match: MatchView | null;
};

/** Swipes: like, pass, super like; a mutual like makes a match. */
export class SwipeService {
  constructor(
    private readonly swipes: SwipeRepository,
    private readonly matches: MatchRepository,
    private readonly users: UserRepository,
    private readonly followUps: FollowUps,
  ) {}

  /**
   * Records the caller's swipe on `targetId` (in the caller's pool only). The decision is one Lua call on
   * the pair; its follow-up steps (the swipe applied to the caller's feed, a new match in both users'
   * lists, the events) were committed with it and are completed before the answer (on an Idempotency-Key
   * replay too, in case the first attempt stopped before completing them). Profiles are read only when
   * there is a match to show.
   */
  async swipe({ userId, pool }: Principal, targetId: number, kind: SwipeKind, idempotencyKey?: string): Promise<LikeResult> {
    if (targetId === userId) throw errors.invalidField('user_id', 'is your own id: you cannot swipe on yourself');
    const outcome = await this.swipes.record(pool, userId, targetId, kind, new Date(), idempotencyKey);
    if (outcome.status === 'not_found') throw errors.notFound('user in your pool with this id');
    if (outcome.status === 'rate_limited') throw errors.rateLimited(retryAfterSeconds(outcome.retryAfterMs), 'swipes from this account');

    const like = { from_user_id: userId, to_user_id: targetId, kind: outcome.kind, created_at: outcome.createdAt };
    const { pending } = outcome;
    if (outcome.effect === 'none') {
      await this.followUps.complete(pool, pending);
      return { like, matched: false, match: null };
    }

    // Showing a match needs the target's profile; a new match's events need the swiper's too.
    const profiles = outcome.effect === 'created' && !outcome.replay ? [userId, targetId] : [targetId];
    const [match, users] = await Promise.all([this.matchOf(pool, outcome, [userId, targetId]), this.userMap(pool, profiles)]);
    await this.followUps.complete(pool, pending, users);
    const target = users.get(targetId);
    if (!target) throw errors.notFound('user in your pool with this id');
    return { like, matched: match !== undefined, match: match ? matchView(match, publicProfile(target)) : null };
  }

  private async matchOf(pool: Pool, outcome: Extract<SwipeOutcome, { status: 'recorded' }>, pair: [number, number]): Promise<Match | undefined> {
    if (outcome.effect === 'none' || outcome.matchId === null) return undefined;
    if (outcome.effect === 'created' && !outcome.replay) {
      return {
        id: outcome.matchId,
        userIds: [Math.min(...pair), Math.max(...pair)],
        createdAt: outcome.createdAt,
        sharedInterests: outcome.sharedInterests ?? [],
        lastMessage: null,
        endedAt: null,
      };
    }
    return this.matches.find(pool, outcome.matchId, { includeEnded: true });
  }

  private async userMap(pool: Pool, ids: number[]): Promise<Map<number, UserRecord>> {
    const users = await this.users.findMany(pool, ids);
    return new Map(users.filter((u): u is UserRecord => u !== undefined).map((u) => [u.id, u]));
  }
}
