import type { Pool } from '../domain/pool.js';
import type { UserRecord } from '../store/user-repository.js';

export type EventType = 'match.created' | 'message.created' | 'match.ended' | 'like.received';

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
};

export interface EventPublisher {
  publish(event: DomainEvent): Promise<void>;
}

/** Publishes nowhere; used until a real publisher is wired. */
export const nullEventPublisher: EventPublisher = { publish: async () => {} };

/**
 * Appends the events of writes whose pending records the commit scripts left in the outbox. Neither call
 * throws: a record that could not be flushed stays pending and the sweeper flushes it a moment later.
 */
export interface PendingEventFlusher {
  /** Flushes a record just committed (`record` as the commit script wrote it); `known` saves profile reads. */
  flush(pool: Pool, pendingId: string, record: string, known?: Map<number, UserRecord>): Promise<void>;
  /** Flushes the record `pendingId` if it is still pending (an Idempotency-Key replay of its write). */
  flushPending(pool: Pool, pendingId: string): Promise<void>;
}
