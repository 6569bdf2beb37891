import type { Message } from '../matches/index.js';
import type { Pool } from '../../platform/core/pool.js';
import type { UserRecord } from '../accounts/index.js';

export type EventType = 'match.created' | 'message.created' | 'message.read' | 'match.ended' | 'like.received';

/**
 * Something that happened which users (and, for agents, spectators) are told about.
 * `recipients` are user ids in `pool`; each gets the event on its own stream, with its own view of `data`
 * (`dataFor` builds it, e.g. a match shows "the other" user). `spectator` is the public, synthetic view
 * published to the spectator stream — only ever set for the agent pool.
 */
export type DomainEvent = {
  type: EventType;
  pool: Pool;
  recipients: number[];
  dataFor: (recipientId: number) => unknown;
  spectator?: unknown;
  /** A `message.created` event's message: its stream entries refer to it in its thread. */
  message?: Message;
  /**
   * An event that shows profiles (`match.created`, `like.received`): what its stream entries store instead
   * of the frame, the JSON of the event's spec; the frame is built again, with the profiles as they are,
   * when the entry is read, and the entry is skipped once one of them is gone (an account that left).
   */
  profiles?: string;
};


/** What the caller of a write already holds of what its events show: profiles by user id, messages by message id. */
export type Known = { users?: ReadonlyMap<number, UserRecord>; messages?: ReadonlyMap<number, Message> };
