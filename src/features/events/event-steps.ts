import type { Pool } from '../../platform/core/pool.js';
import type { AfterEffects, EffectHandler, EffectStep } from '../../platform/outbox/effect-handlers.js';
import type { UserRepository } from '../accounts/index.js';
import type { Message, MessageRepository } from '../matches/index.js';
import type { EventStreams, StreamAppend } from './event-stream-repository.js';
import type { Known } from './events.js';
import { EVENT_EFFECTS } from './event-effects.js';
import { buildEvents, messagesNeeded, profilesNeeded, type PendingEvent } from './pending-events.js';
import { streamAppends } from './stream-appends.js';

/** Told, within the outbox step, that events were appended to an account's stream (webhooks queue their deliveries). */
export interface UserEventsListener {
  eventsAppended(pool: Pool, userId: number): Promise<void>;
}

/**
 * The outbox steps of a record's events: each event built from its spec (with the profiles and messages
 * it shows, read together unless the caller knows them) and appended once to every stream it goes to.
 * What follows: the entries appended now counted (the spectator tally), and the listeners told of every
 * account whose stream was given an event (also when a re-run finds them appended already).
 */
export class EventSteps implements EffectHandler<Known> {
  readonly types = Object.keys(EVENT_EFFECTS);
  readonly schemas = EVENT_EFFECTS;
  private readonly listeners: UserEventsListener[] = [];

  constructor(
    private readonly streams: EventStreams,
    private readonly users: UserRepository,
    private readonly messages: MessageRepository,
  ) {}

  /** Runs `listener` as part of each step that appends events to accounts' streams, after the appends. */
  onUserEvents(listener: UserEventsListener): this {
    this.listeners.push(listener);
    return this;
  }

  async apply(pool: Pool, steps: readonly EffectStep[], known: Known = {}): Promise<AfterEffects> {
    const events = steps.map(({ effect, stepId }) => ({ spec: effect as PendingEvent, step: stepId }));
    const users = new Map(known.users);
    const messages = new Map(known.messages);
    const specs = events.map((e) => e.spec);
    const missing = profilesNeeded(specs).filter((id) => !users.has(id));
    const unread = messagesNeeded(specs).filter((ref) => !messages.has(ref.messageId));
    const [found, read] = await Promise.all([this.users.findMany(pool, missing), unread.length > 0 ? this.messages.findMany(pool, unread) : new Map<number, Message>()]);
    for (const user of found) if (user) users.set(user.id, user);
    for (const [id, message] of read) messages.set(id, message);
    const recipients = new Set<number>();
    const appended: StreamAppend[] = [];
    const appends = events.flatMap(({ spec, step }) =>
      buildEvents(pool, [spec], users, messages).flatMap(({ event, at }) => {
        for (const recipient of event.recipients) recipients.add(recipient);
        return streamAppends(event, at).map(async (entry) => {
          if (await this.streams.append(entry, `${step}@${entry.route}`)) appended.push(entry);
        });
      }),
    );
    await Promise.all(appends);
    return async () => {
      await Promise.all([
        ...appended.map((entry) => this.streams.count(entry)),
        ...[...recipients].flatMap((userId) => this.listeners.map((listener) => listener.eventsAppended(pool, userId))),
      ]);
    };
  }
}
