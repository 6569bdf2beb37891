import { publicProfile, type UserRecord } from '../accounts/index.js';
import type { Pool } from '../../platform/core/pool.js';
import type { StreamAppend } from '../events/index.js';
import { matchView, otherParticipant, type Match, type Message } from './match.js';

export type EventType = 'match.created' | 'message.created' | 'message.read' | 'match.ended' | 'like.received';

/**
 * What a public event is about, for the audiences beyond its recipients (the spectators build their view
 * of it): a match created, with its two accounts; a message; a match ended.
 */
export type EventSubject =
  | { type: 'match.created'; match: Match; users: [UserRecord, UserRecord] }
  | { type: 'message.created'; message: Message }
  | { type: 'match.ended'; match: Match; endedAt: string };

/**
 * Something that happened which users (and, for agents, spectators) are told about.
 * `recipients` are user ids in `pool`; each gets the event on its own stream, with its own view of `data`
 * (`dataFor` builds it, e.g. a match shows "the other" user). `subject` is set for the events others may
 * be shown.
 */
export type DomainEvent = {
  type: EventType;
  pool: Pool;
  recipients: number[];
  dataFor: (recipientId: number) => unknown;
  subject?: EventSubject;
  /** A `message.created` event's message: its stream entries refer to it in its thread. */
  message?: Message;
  /**
   * An event that shows profiles (`match.created`, `like.received`): what its stream entries store instead
   * of the frame, the JSON of the event's spec; the frame is built again, with the profiles as they are,
   * when the entry is read, and the entry is skipped once one of them is gone (an account that left).
   */
  profiles?: string;
};

/** The entries an audience (an event's recipients, the spectators) is given of an event; see MatchEventSteps. */
export type EventAudience = (event: DomainEvent, at: string) => StreamAppend[];

/** What the caller of a write already holds of what its events show: profiles by user id, messages by message id. */
export type Known = { users?: ReadonlyMap<number, UserRecord>; messages?: ReadonlyMap<number, Message> };

/** The events of matches and messages. Each recipient gets its own view. */
export function matchCreated(pool: Pool, match: Match, users: Map<number, UserRecord>): DomainEvent {
  const [a, b] = match.userIds.map((id) => users.get(id)!) as [UserRecord, UserRecord];
  return {
    type: 'match.created',
    pool,
    recipients: [...match.userIds],
    dataFor: (recipientId) => matchView(match, publicProfile(users.get(otherParticipant(match, recipientId))!)),
    subject: { type: 'match.created', match, users: [a, b] },
  };
}

export function messageCreated(pool: Pool, match: Match, message: Message): DomainEvent {
  return {
    type: 'message.created',
    pool,
    recipients: [...match.userIds],
    message,
    dataFor: () => message,
    subject: { type: 'message.created', message },
  };
}

/** Told to the other user only: read state is the pair's own, never shown to spectators. */
export function messageRead(pool: Pool, read: { match_id: number; recipient: number; reader_id: number; message_id: number }): DomainEvent {
  return {
    type: 'message.read',
    pool,
    recipients: [read.recipient],
    dataFor: () => ({ match_id: read.match_id, reader_id: read.reader_id, message_id: read.message_id }),
  };
}

export function matchEnded(pool: Pool, match: Match, endedAt: string): DomainEvent {
  return {
    type: 'match.ended',
    pool,
    recipients: [...match.userIds],
    dataFor: () => ({ match_id: match.id, ended_at: endedAt }),
    subject: { type: 'match.ended', match, endedAt },
  };
}

export function likeReceived(pool: Pool, from: UserRecord, toId: number, createdAt: string): DomainEvent {
  return {
    type: 'like.received',
    pool,
    recipients: [toId],
    dataFor: () => ({ from: publicProfile(from), kind: 'super_like', created_at: createdAt }),
  };
}
