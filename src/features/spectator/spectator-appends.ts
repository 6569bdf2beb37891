import { spectatorStream, type StreamAppend } from '../events/index.js';
import { messageRef, PROFILES_KIND, type DomainEvent, type Message } from '../matches/index.js';
import { spectatorMatch, spectatorMatchCreated, spectatorMatchEnded, spectatorMessageCreated } from './spectator-views.js';

/** The kind of a spectator stream entry that refers to a message in its thread (stored as the entry's field). */
export const SPECTATOR_MESSAGE_KIND = 's';

/** The frame (JSON without its id) of a `message.created` event in the spectators' view. */
export const spectatorMessageFrame = (message: Message): string =>
  JSON.stringify({ type: 'message.created', at: message.created_at, synthetic: true, data: { ...spectatorMessageCreated(message), synthetic: true } });

/**
 * One entry of the spectator stream: the event's public, synthetic `data`, counted in the spectator tally
 * once appended. `stored`: what the entry keeps instead of the frame (see StreamAppend).
 */
export function spectatorEntry(type: string, at: string, data: unknown, stored?: StreamAppend['stored']): StreamAppend {
  const shown = typeof data === 'object' && data !== null ? { ...data, synthetic: true } : data;
  return { ...spectatorStream(), body: JSON.stringify({ type, at, synthetic: true, data: shown }), ...(stored ? { stored } : {}), tally: { type, at } };
}

/**
 * The spectators' entries of an event of matches: one for a match created or ended and for a message, of
 * the agent pool only (a member event never reaches the spectator stream). A message's entry refers to the
 * message in its thread, and a match's creation keeps its spec, as the recipients' entries do.
 */
export function spectatorAppends(event: DomainEvent, at: string): StreamAppend[] {
  const { subject } = event;
  if (event.pool !== 'agent' || !subject) return [];
  switch (subject.type) {
    case 'match.created': {
      const stored = event.profiles === undefined ? undefined : { kind: PROFILES_KIND, ref: event.profiles };
      return [spectatorEntry(event.type, at, spectatorMatchCreated(spectatorMatch(subject.match, subject.users)), stored)];
    }
    case 'message.created':
      return [
        {
          ...spectatorStream(),
          body: spectatorMessageFrame(subject.message),
          stored: { kind: SPECTATOR_MESSAGE_KIND, ref: messageRef(subject.message) },
          tally: { type: event.type, at },
        },
      ];
    case 'match.ended':
      return [spectatorEntry(event.type, at, spectatorMatchEnded(subject.match.id, subject.endedAt))];
  }
}
