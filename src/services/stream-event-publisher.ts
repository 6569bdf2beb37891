import { SPECTATOR_TOPIC, userTopic } from '../domain/event-topics.js';
import type { EventStreams, StreamAppend } from '../store/event-streams.js';
import { spectatorStreamKeys, userStreamKeys } from '../store/keys.js';
import type { DomainEvent, EventPublisher, EventType } from './events.js';
import { messageFrame, messageRef } from '../domain/message-frames.js';

/** Length caps: memory guards far above a day's traffic, so the 24 h of replay holds in practice. */
export const USER_STREAM_MAX_LENGTH = 10_000;
export const SPECTATOR_STREAM_MAX_LENGTH = 100_000;

const SPECTATOR_TYPES: ReadonlySet<EventType> = new Set(['match.created', 'message.created', 'match.ended']);

/**
 * Publishes an event that no write committed (not a follow-up step): appends it to each recipient's stream
 * (and, for agent matches, to the spectator stream), each announced so that every process relays it live.
 */
export class StreamEventPublisher implements EventPublisher {
  constructor(private readonly streams: EventStreams) {}

  async publish(event: DomainEvent): Promise<void> {
    await Promise.all(streamAppends(event, new Date().toISOString()).map((entry) => this.streams.append(entry)));
  }
}

/**
 * The stream entries of one event: one per recipient and, for agent matches, one for spectators. A
 * message's entries refer to the message in its thread rather than hold it (see lua/append_event-2.lua).
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
        : { body: JSON.stringify({ type: event.type, at, data: event.dataFor(recipient) }) }),
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
        : { body: JSON.stringify({ type: event.type, at, synthetic: true, data }) }),
      tally: { type: event.type, at },
    });
  }
  return entries;
}
