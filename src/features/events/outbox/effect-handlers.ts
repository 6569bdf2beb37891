import type { Pool } from '../../../platform/core/pool.js';

/** One effect of a pending outbox record: what a committed write still has to do in another hash slot. */
export type Effect = { type: string } & Record<string, unknown>;

/**
 * Carries out the effects of some types. `apply` must be idempotent (a record may be completed twice: by
 * the request that committed it and by the sweeper) and each of its Redis calls must touch one hash slot.
 * `stepId` is unique per effect of a record (`<pending id>#<index>`), for steps that need a marker to be
 * applied once (appending to a stream).
 */
export interface EffectHandler {
  readonly types: readonly string[];
  apply(pool: Pool, effect: Effect, stepId: string): Promise<void>;
}
