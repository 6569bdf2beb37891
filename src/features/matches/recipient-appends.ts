import { userStream, type StreamAppend } from '../events/index.js';
import type { DomainEvent } from './match-events.js';
import { MESSAGE_KIND, messageFrame, messageRef } from './message-frames.js';
import { PROFILES_KIND } from './profile-frames.js';

/**
 * The entries of one event on its recipients' streams, one each. A message's entry refers to the message
 * in its thread rather than hold it (see lua/append_event-2.lua), and an event showing profiles stores its
 * spec rather than the profiles (`DomainEvent.profiles`).
 */
export function recipientAppends(event: DomainEvent, at: string): StreamAppend[] {
  const message = event.type === 'message.created' ? event.message : undefined;
  return [...new Set(event.recipients)].map((recipient) => ({
    ...userStream(event.pool, recipient),
    ...(message
      ? { body: messageFrame(message), stored: { kind: MESSAGE_KIND, ref: messageRef(message) } }
      : {
          body: JSON.stringify({ type: event.type, at, data: event.dataFor(recipient) }),
          ...(event.profiles === undefined ? {} : { stored: { kind: PROFILES_KIND, ref: event.profiles } }),
        }),
  }));
}
