import { SPECTATOR_TOPIC, userTopic } from './event-topics.js';
import type { StreamAppend } from './event-stream-repository.js';
import { spectatorStreamKeys, userStreamKeys } from '../../platform/redis/keys.js';
import type { DomainEvent, EventType } from './events.js';
import { messageFrame, messageRef } from './message-frames.js';

/** Length caps: memory guards far above a day's traffic, so the 24 h of replay holds in practice. */
export const USER_STREAM_MAX_LENGTH = 10_000;
export const SPECTATOR_STREAM_MAX_LENGTH = 100_000;

const SPECTATOR_TYPES: ReadonlySet<EventType> = new Set(['match.created', 'message.created', 'match.ended']);

const profilesOf = (event: DomainEvent) => (event.profiles === undefined ? {} : { profiles: event.profiles });

/**
 * The stream entries of one event: one per recipient and, for agent matches, one for spectators. A
 * message's entries refer to the message in its thread rather than hold it (see lua/append_event-2.lua), and an event showing profiles
 * stores its spec rather than the profiles (`DomainEvent.profiles`).
 */
export function streamAppends(event: DomainEvent, at: string): StreamAppend[] {
  const entries: StreamAppend[] = [];
  const message = event.type === 'message.created' ? event.message : undefined;
  for (const recipient of new Set(event.recipients)) {
    entries.push({
      target: userStreamKeys(event.pool, recipient),
      route: userTopic(event.pool, recipient),
      maxLength: USER_STREAM_MAX_LENGTH,
      ...(message
        ? { body: messageFrame('u', message), message: { view: 'u' as const, ref: messageRef(message) } }
        : { body: JSON.stringify({ type: event.type, at, data: event.dataFor(recipient) }), ...profilesOf(event) }),
    });
  }
  // Only agents are ever shown to spectators; a member event never reaches the spectator stream.
  if (event.pool === 'agent' && event.spectator !== undefined && SPECTATOR_TYPES.has(event.type)) {
    const data = typeof event.spectator === 'object' && event.spectator !== null ? { ...event.spectator, synthetic: true } : event.spectator;
    entries.push({
      target: spectatorStreamKeys(),
      route: SPECTATOR_TOPIC,
      maxLength: SPECTATOR_STREAM_MAX_LENGTH,
      ...(message
        ? { body: messageFrame('s', message), message: { view: 's' as const, ref: messageRef(message) } }
        : { body: JSON.stringify({ type: event.type, at, synthetic: true, data }), ...profilesOf(event) }),
      tally: { type: event.type, at },
    });
  }
  return entries;
}
