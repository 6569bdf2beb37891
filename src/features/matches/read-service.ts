import { errors } from '../../platform/core/errors.js';
import type { Principal } from '../../platform/core/principal.js';
import type { Outbox } from '../../platform/outbox/outbox.js';
import type { Known } from './match-events.js';
import { MATCH_NOT_FOUND_HINT, type MatchService } from './match-service.js';
import type { ReadStateRepository } from './read-state-repository.js';

/** A match's read state as its route answers it. */
export type ReadStateView = { match_id: number; read_up_to: number; unread_count: number };

/** Marks a thread read. Only the match's two users reach it. */
export class ReadService {
  constructor(
    private readonly matches: MatchService,
    private readonly reads: ReadStateRepository,
    private readonly outbox: Outbox<Known>,
  ) {}

  /**
   * Marks the caller's side of the thread read up to `messageId` (a message of the thread); never moves
   * back. When the mark moved, the other user's `message.read` is committed with it and completed before
   * the answer.
   */
  async markRead(caller: Principal, matchId: number, messageId: number): Promise<ReadStateView> {
    const match = await this.matches.requireForWrite(caller, matchId);
    const outcome = await this.reads.markRead(caller.pool, match.id, caller.userId, messageId, new Date());
    if (outcome.status === 'not_found') {
      this.matches.forget(caller, matchId);
      throw errors.notFound('match of yours with this id', MATCH_NOT_FOUND_HINT);
    }
    if (outcome.status === 'no_message') {
      throw errors.invalidField(
        'message_id',
        'is not a message of this match: pass the id of a message from GET /api/v1/matches/{id}/messages (a thread keeps its newest messages only)',
      );
    }
    if (outcome.pending) await this.outbox.complete(caller.pool, outcome.pending);
    return { match_id: match.id, read_up_to: outcome.read.readUpTo ?? messageId, unread_count: outcome.read.unreadCount };
  }
}
