import type { Match, Message } from './match.js';
import type { Pool } from '../../platform/core/pool.js';
import type { UserRecord } from '../accounts/index.js';
import type { DomainEvent } from './match-events.js';
import { likeReceived, matchCreated, matchEnded, messageCreated, messageRead } from './match-events.js';

/**
 * What a commit script writes to the outbox for each event (lua/record_swipe-5.lua, append_message-7.lua,
 * end_match-7.lua), among the other effects of its pending record: enough to build the event later.
 * Profiles are read when the events are built.
 */
export type PendingEvent =
  | { type: 'like.received'; from: number; to: number; created_at: string }
  | { type: 'match.created'; match: { id: number; users: [number, number]; created_at: string; shared_interests: string[] } }
  /** The message is read from its thread when the event is built (`message` itself: a record written before that). */
  | { type: 'message.created'; match_id: number; users: [number, number]; message_id?: number; message?: Message }
  | { type: 'match.ended'; match_id: number; users: [number, number]; ended_at: string }
  /** lua/mark_read-5.lua: the reader's mark moved to `message_id`; told to `recipient`, the other user. */
  | { type: 'message.read'; match_id: number; recipient: number; reader_id: number; message_id: number; read_at: string };

/** An event built from its spec, with the time it happened (the frame's `at`). */
export type BuiltEvent = { event: DomainEvent; at: string };

const EVENT_TYPES: ReadonlySet<string> = new Set(['like.received', 'match.created', 'message.created', 'message.read', 'match.ended']);

/** Whether an effect of a pending record is an event (the other effects are steps of their own handlers). */
export const isPendingEvent = (effect: { type: string }): effect is PendingEvent => EVENT_TYPES.has(effect.type);

/** The user ids whose profiles the events of `specs` show. */
export function profilesNeeded(specs: readonly PendingEvent[]): number[] {
  const ids = new Set<number>();
  for (const spec of specs) {
    if (spec.type === 'like.received') ids.add(spec.from);
    if (spec.type === 'match.created') for (const id of spec.match.users) ids.add(id);
  }
  return [...ids];
}

/** The messages (match and message ids) whose events `specs` hold by id only. */
export function messagesNeeded(specs: readonly PendingEvent[]): Array<{ matchId: number; messageId: number }> {
  return specs.flatMap((spec) =>
    spec.type === 'message.created' && !spec.message && spec.message_id ? [{ matchId: spec.match_id, messageId: spec.message_id }] : [],
  );
}

/**
 * The events of a record; an event whose account has disappeared is left out, and so is a message's whose
 * thread no longer holds it (`messages`: message id → message; the match ended, or the message was trimmed).
 */
export function buildEvents(
  pool: Pool,
  specs: readonly PendingEvent[],
  users: Map<number, UserRecord>,
  messages: Map<number, Message> = new Map(),
): BuiltEvent[] {
  const built: BuiltEvent[] = [];
  for (const spec of specs) {
    switch (spec.type) {
      case 'like.received': {
        const from = users.get(spec.from);
        if (from) built.push({ event: { ...likeReceived(pool, from, spec.to, spec.created_at), profiles: JSON.stringify(spec) }, at: spec.created_at });
        break;
      }
      case 'match.created': {
        const match = matchOf(spec.match.id, spec.match.users, spec.match.created_at, spec.match.shared_interests);
        if (spec.match.users.every((id) => users.has(id)))
          built.push({ event: { ...matchCreated(pool, match, users), profiles: JSON.stringify(spec) }, at: spec.match.created_at });
        break;
      }
      case 'message.created': {
        const message = spec.message ?? messages.get(spec.message_id ?? 0);
        if (message) built.push({ event: messageCreated(pool, matchOf(spec.match_id, spec.users), message), at: message.created_at });
        break;
      }
      case 'message.read':
        built.push({ event: messageRead(pool, spec), at: spec.read_at });
        break;
      case 'match.ended':
        built.push({ event: matchEnded(pool, matchOf(spec.match_id, spec.users), spec.ended_at), at: spec.ended_at });
        break;
    }
  }
  return built;
}

function matchOf(id: number, users: [number, number], createdAt = '', sharedInterests: string[] = []): Match {
  return { id, userIds: users, createdAt, sharedInterests, lastMessage: null, endedAt: null };
}
