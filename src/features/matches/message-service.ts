import { errors } from '../../platform/core/errors.js';
import type { Message } from './match.js';
import { mentionedInterests } from './mentions.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import type { MessageRepository } from './message-repository.js';
import type { Outbox } from '../../platform/outbox/outbox.js';
import type { Known } from './match-events.js';
import type { Principal } from '../../platform/core/principal.js';
import type { MatchService } from './match-service.js';

/**
 * Waits for every one of `promises` (started together, so their Redis calls share a round trip), then
 * throws the first rejection in the order given: the answer's error is the one it would be were they
 * awaited one after another, whichever reply came back first.
 */
async function allInOrder<T extends readonly unknown[]>(promises: { readonly [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** The conversation of a match: send, read. Only the match's two users reach it. */
export class MessageService {
  constructor(
    private readonly matches: MatchService,
    private readonly messages: MessageRepository,
    private readonly outbox: Outbox<Known>,
  ) {}

  /**
   * Sends `body` (already validated) once `admitted` (the sender's rate limit, counted while the match is
   * checked) resolves; with an Idempotency-Key a retry returns the first message, and the key sent again
   * for another match or with another body is refused (409). A match whose other user is suspended
   * answers 404, as an unknown one. The message's outbox steps (its event, the match moved up in the
   * lists) were committed with it and are completed right after the answer (a retry's effects before it).
   */
  async send(caller: Principal, matchId: number, body: string, idempotencyKey?: string, admitted: Promise<void> = Promise.resolve()): Promise<Message> {
    const [, claimedBy, match] = await allInOrder([
      admitted,
      idempotencyKey === undefined ? Promise.resolve(undefined) : this.messages.claimKey(caller.pool, caller.userId, matchId, body, idempotencyKey),
      this.matches.requireToMessage(caller, matchId),
    ]);
    if (claimedBy) {
      throw errors.idempotencyKeyReused(
        claimedBy.matchId !== matchId
          ? `target (it was first sent with POST /api/v1/matches/${claimedBy.matchId}/messages${claimedBy.sameBody ? '' : ' and another body'})`
          : 'message body',
      );
    }
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
    const known = { messages: new Map([[outcome.message.id, outcome.message]]) };
    // A retry's events exist when it is answered, in case the first attempt stopped before completing them.
    if (outcome.status === 'replay') await this.outbox.completeEffects(caller.pool, outcome.pending, known);
    else this.outbox.completeAfterAnswer(caller.pool, outcome.pending, known);
    return outcome.message;
  }

  /** The newest messages first by page, oldest first within a page; the cursor goes towards older ones. */
  async list(caller: Principal, matchId: number, page: PageRequest<number>): Promise<Page<Message, number>> {
    // Both reads in one round trip; the page is dropped if the match is not the caller's.
    const [, messages] = await Promise.all([this.matches.require(caller, matchId), this.messages.list(caller.pool, matchId, page)]);
    return messages;
  }
}
