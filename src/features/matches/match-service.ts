import { errors } from '../../platform/core/errors.js';
import { isParticipant, matchView, otherParticipant, type Match, type MatchHead, type MatchView } from './match.js';
import { publicProfile } from '../accounts/index.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import type { ActivityCursor } from '../../platform/core/page-positions.js';
import type { Principal } from '../../platform/core/principal.js';
import type { MatchRepository } from './match-repository.js';
import type { SuspensionRepository, UserRepository } from '../accounts/index.js';
import type { Outbox } from '../../platform/outbox/outbox.js';
import type { Known } from './match-events.js';
import type { ReadStateRepository } from './read-state-repository.js';
import { RecentMatches } from './recent-matches.js';

/** A caller's matches: list, read one, unmatch. */
export class MatchService {
  private readonly recent = new RecentMatches();

  constructor(
    private readonly matches: MatchRepository,
    private readonly users: UserRepository,
    private readonly outbox: Outbox<Known>,
    private readonly reads: ReadStateRepository,
    /** A suspended partner is shown as an absent one: its match is left out until the suspension is lifted. */
    private readonly suspensions?: Pick<SuspensionRepository, 'suspendedAmong'>,
  ) {}

  async list(caller: Principal, page: PageRequest<ActivityCursor>): Promise<Page<MatchView, ActivityCursor>> {
    const { items, next } = await this.matches.listForUser(caller.pool, caller.userId, page);
    return { items: await this.views(caller, items), next };
  }

  async get(caller: Principal, matchId: number): Promise<MatchView> {
    const match = await this.matches.find(caller.pool, matchId, { includeEnded: true });
    if (!match || !isParticipant(match, caller.userId)) throw notFound();
    if (match.endedAt) throw errors.matchEnded(match.endedAt);
    const [view] = await this.views(caller, [match]);
    if (!view) throw notFound();
    return view;
  }

  /**
   * Ends the match for both users and closes its thread, events included (its messages stay readable to
   * reports for a while, unless `eraseThread`: the caller is leaving); 404 when it is not a match of the
   * caller's, 410 when it has ended already. Its outbox steps (out of the lists, the thread's events out of
   * the streams, `match.ended`) are committed with it.
   */
  async unmatch(caller: Principal, matchId: number, { eraseThread = false } = {}): Promise<void> {
    const match = await this.require(caller, matchId);
    const pending = await this.matches.end(caller.pool, match, caller.userId, new Date(), { eraseThread });
    this.recent.forget(caller.pool, matchId);
    if (!pending) return this.refuse(caller, matchId);
    await this.outbox.complete(caller.pool, pending);
  }

  /**
   * Ends the match, as an unmatch by the caller does, when it is still a current match of the caller's (a
   * block ends the pair's match this way); nothing when it has ended already or is not the caller's.
   */
  async endIfCurrent(caller: Principal, matchId: number): Promise<void> {
    const match = await this.matches.findHead(caller.pool, matchId, { includeEnded: true });
    if (!match || match.endedAt || !isParticipant(match, caller.userId)) return;
    const pending = await this.matches.end(caller.pool, match, caller.userId, new Date());
    this.recent.forget(caller.pool, matchId);
    if (pending) await this.outbox.complete(caller.pool, pending);
  }

  /**
   * A current match of the caller's, looked up in the caller's pool only; 410 `match_ended` when it was one
   * and has ended (kept so for ENDED_MATCH_KEPT_SECONDS), 404 otherwise.
   */
  async require(caller: Principal, matchId: number): Promise<MatchHead> {
    const match = await this.matches.findHead(caller.pool, matchId, { includeEnded: true });
    if (!match || !isParticipant(match, caller.userId)) throw notFound();
    if (match.endedAt) throw errors.matchEnded(match.endedAt);
    return match;
  }

  /**
   * The refusal of a write whose script found the match not current (or not the caller's): 410 when it
   * has ended, else 404.
   */
  async refuse(caller: Principal, matchId: number): Promise<never> {
    this.forget(caller, matchId);
    await this.require(caller, matchId);
    throw notFound();
  }

  /**
   * A match of the caller's to write to (a message), as `require` finds it, but from the matches this
   * process looked up lately when it has it: the write's own script checks again, atomically, that the
   * match is current and the caller one of its users (a match ended meanwhile answers 404 there), and
   * calls `forget` when it was not.
   */
  async requireForWrite(caller: Principal, matchId: number): Promise<MatchHead> {
    const known = this.recent.get(caller.pool, matchId);
    if (known && isParticipant(known, caller.userId)) return known;
    const match = await this.require(caller, matchId);
    this.recent.remember(caller.pool, match);
    return match;
  }

  /**
   * A match of the caller's to send a message in, as `requireForWrite` finds it, whose other user is not
   * suspended: that match answers 404 as an unknown one does, as `get` and the list leave it out.
   */
  async requireToMessage(caller: Principal, matchId: number): Promise<MatchHead> {
    const match = await this.requireForWrite(caller, matchId);
    if ((await this.suspensions?.suspendedAmong(caller.pool, [otherParticipant(match, caller.userId)]))?.size) throw notFound();
    return match;
  }

  /** The match was found not current (or not the caller's) by a write's script. */
  forget(caller: Principal, matchId: number): void {
    this.recent.forget(caller.pool, matchId);
  }

  /**
   * The caller's views of `matches`, with the other users' profiles as they are. A match whose other user
   * has left, or is suspended, is left out (its profile is shown nowhere), as `get` answers it 404.
   */
  private async views(caller: Principal, matches: Match[]): Promise<MatchView[]> {
    const otherIds = matches.map((m) => otherParticipant(m, caller.userId));
    const [others, reads, suspended] = await Promise.all([
      this.users.findMany(caller.pool, otherIds),
      this.reads.forViewer(caller.pool, matches, caller.userId),
      this.suspensions?.suspendedAmong(caller.pool, otherIds),
    ]);
    return matches.flatMap((match, i) => {
      const other = others[i];
      return other && !suspended?.has(other.id) ? [matchView(match, publicProfile(other), reads[i])] : [];
    });
  }
}

/** Also answered for a user or message id passed where a match id belongs (each kind is counted apart). */
export const MATCH_NOT_FOUND_HINT =
  'Pass a match id (the id of an item of GET /api/v1/matches, or match.id in the answer of a like that matched), not a user id or a message id: each is counted apart, so the same number can name one of each.';
const notFound = () => errors.notFound('match of yours with this id', MATCH_NOT_FOUND_HINT);
