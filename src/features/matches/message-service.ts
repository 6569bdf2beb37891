import { errors } from '../../platform/core/errors.js';
import { otherParticipant, type Message } from './match.js';
import { mentionedInterests } from './mentions.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import type { MessageRepository } from './message-repository.js';
import type { Outbox } from '../events/index.js';
import type { Principal } from '../../platform/core/principal.js';
import type { MatchService } from './match-service.js';
import type { SuspensionRepository } from '../accounts/index.js';

/** The conversation of a match: send, read. Only the match's two users reach it. */
export class MessageService {
  constructor(
    private readonly matches: MatchService,
    private readonly messages: MessageRepository,
    private readonly outbox: Outbox,
    /** A message to a suspended account is refused (403 account_suspended); the match is kept. */
    private readonly suspensions?: Pick<SuspensionRepository, 'suspendedAmong'>,
  ) {}

  /**
   * Sends `body` (already validated); with an Idempotency-Key a retry returns the first message, and the
   * key sent again for another match or with another body is refused (409). The
   * message's outbox steps (its event, the match moved up in the lists) were committed with it and are
   * completed before the answer, on a retry too.
   */
  async send(caller: Principal, matchId: number, body: string, idempotencyKey?: string): Promise<Message> {
    const [claimedBy, match] = await Promise.all([
      idempotencyKey === undefined ? undefined : this.messages.claimKey(caller.pool, caller.userId, matchId, body, idempotencyKey),
      this.matches.requireForWrite(caller, matchId),
    ]);
    if (claimedBy) {
      throw errors.idempotencyKeyReused(
        claimedBy.matchId !== matchId
          ? `target (it was first sent with POST /api/v1/matches/${claimedBy.matchId}/messages${claimedBy.sameBody ? '' : ' and another body'})`
          : 'message body',
      );
    }
    if ((await this.suspensions?.suspendedAmong(caller.pool, [otherParticipant(match, caller.userId)]))?.size) throw errors.recipientSuspended();
    const now = new Date();
    const outcome = await this.messages.append(
      caller.pool,
      match,
      {
        match_id: match.id,
        sender_id: caller.userId,
        body,
        created_at: now.toISOString(),
        shared_interests_mentioned: mentionedInterests(body, match.sharedInterests),
      },
      now,
      idempotencyKey,
    );
    if (outcome.status === 'not_found') return this.matches.refuse(caller, matchId);
    if (outcome.status === 'key_reused') throw errors.idempotencyKeyReused('message body');
    // The message as stored is in hand: its event is built from it rather than read back from the thread.
    await this.outbox.complete(caller.pool, outcome.pending, { messages: new Map([[outcome.message.id, outcome.message]]) });
    return outcome.message;
  }

  /** The newest messages first by page, oldest first within a page; the cursor goes towards older ones. */
  async list(caller: Principal, matchId: number, page: PageRequest<number>): Promise<Page<Message, number>> {
    // Both reads in one round trip; the page is dropped if the match is not the caller's.
    const [, messages] = await Promise.all([this.matches.require(caller, matchId), this.messages.list(caller.pool, matchId, page)]);
    return messages;
  }
}
