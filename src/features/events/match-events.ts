import { matchView, otherParticipant, type Match, type Message } from '../matches/index.js';
import { publicProfile } from '../accounts/index.js';
import { spectatorMatch, spectatorMatchCreated, spectatorMatchEnded, spectatorMessageCreated } from '../spectator/index.js';
import type { Pool } from '../../platform/core/pool.js';
import type { UserRecord } from '../accounts/index.js';
import type { DomainEvent } from './events.js';

/**
 * The events of matches and messages. Each recipient gets its own view; the spectator view (public,
 * synthetic) exists for the agent pool only.
 */
export function matchCreated(pool: Pool, match: Match, users: Map<number, UserRecord>): DomainEvent {
  const [a, b] = match.userIds.map((id) => users.get(id)!) as [UserRecord, UserRecord];
  return {
    type: 'match.created',
    pool,
    recipients: [...match.userIds],
    dataFor: (recipientId) => matchView(match, publicProfile(users.get(otherParticipant(match, recipientId))!)),
    ...(pool === 'agent' ? { spectator: spectatorMatchCreated(spectatorMatch(match, [a, b])) } : {}),
  };
}

export function messageCreated(pool: Pool, match: Match, message: Message): DomainEvent {
  return {
    type: 'message.created',
    pool,
    recipients: [...match.userIds],
    message,
    dataFor: () => message,
    ...(pool === 'agent' ? { spectator: spectatorMessageCreated(message) } : {}),
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
    ...(pool === 'agent' ? { spectator: spectatorMatchEnded(match.id, endedAt) } : {}),
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
