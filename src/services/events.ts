import type { Pool } from '../store/keys.js';

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
