import type { Pool } from '../core/pool.js';
import type { PendingRef } from './outbox-repository.js';

/**
 * Completes the outbox steps of writes whose pending records the commit scripts left in the outbox.
 * Never throws: a record that could not be completed stays pending and the sweeper completes it later.
 * `Known` is what a write's caller may already hold of what its effects need (it saves reads).
 */
export interface Outbox<Known = unknown> {
  /**
   * Completes a write's record: `pending.record` as the commit script wrote it, or, without it (an
   * Idempotency-Key replay), the record still pending under its id, if any.
   */
  complete(pool: Pool, pending: PendingRef, known?: Known): Promise<void>;
  /**
   * As `complete`, but resolves once the record's effects are in place (its events on their streams, its
   * lists changed): what follows them (webhook deliveries queued, the spectator tally, the record deleted)
   * runs right after the answer, the record pending until then.
   */
  completeEffects(pool: Pool, pending: PendingRef, known?: Known): Promise<void>;
  /** As `complete`, started right after the answer: the committed record guarantees the rest across a crash. */
  completeAfterAnswer(pool: Pool, pending: PendingRef, known?: Known): void;
}
