import type { Pool } from '../../platform/core/pool.js';
import type { AfterEffects, EffectHandler, EffectStep } from '../../platform/outbox/effect-handlers.js';
import type { UserRepository } from '../accounts/index.js';
import type { EventAppender, StepAppend } from '../events/index.js';
import { EVENT_EFFECTS } from './event-effects.js';
import type { Message } from './match.js';
import type { EventAudience, Known } from './match-events.js';
import type { MessageRepository } from './message-repository.js';
import { buildEvents, messagesNeeded, profilesNeeded, type PendingEvent } from './pending-events.js';
import { recipientAppends } from './recipient-appends.js';

/**
 * The outbox steps of a record's events (of matches, messages and likes): each event built from its spec
 * (with the profiles and messages it shows, read together unless the caller knows them) and appended once
 * to its recipients' streams and to those of the audiences registered (the spectators').
 */
export class MatchEventSteps implements EffectHandler<Known> {
  readonly types = Object.keys(EVENT_EFFECTS);
  readonly schemas = EVENT_EFFECTS;
  private readonly audiences: EventAudience[] = [recipientAppends];

  constructor(
    private readonly appender: EventAppender,
    private readonly users: Pick<UserRepository, 'findMany'>,
    private readonly messages: Pick<MessageRepository, 'findMany'>,
  ) {}

  /** Appends the entries `audience` gives each event too. */
  addAudience(audience: EventAudience): this {
    this.audiences.push(audience);
    return this;
  }

  async apply(pool: Pool, steps: readonly EffectStep[], known: Known = {}): Promise<AfterEffects> {
    const users = new Map(known.users);
    const messages = new Map(known.messages);
    const specs = steps.map(({ effect }) => effect as PendingEvent);
    const missing = profilesNeeded(specs).filter((id) => !users.has(id));
    const unread = messagesNeeded(specs).filter((ref) => !messages.has(ref.messageId));
    const [found, read] = await Promise.all([
      this.users.findMany(pool, missing),
      unread.length > 0 ? this.messages.findMany(pool, unread) : new Map<number, Message>(),
    ]);
    for (const user of found) if (user) users.set(user.id, user);
    for (const [id, message] of read) messages.set(id, message);
    const appends: StepAppend[] = steps.flatMap(({ effect, stepId }) =>
      buildEvents(pool, [effect as PendingEvent], users, messages).flatMap(({ event, at }) =>
        this.audiences.flatMap((audience) => audience(event, at).map((entry) => ({ entry, step: stepId }))),
      ),
    );
    return this.appender.append(pool, appends);
  }
}
