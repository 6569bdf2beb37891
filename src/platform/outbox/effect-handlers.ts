import type { z } from 'zod';
import type { Pool } from '../core/pool.js';

/** One effect of a pending outbox record: what a committed write still has to do in another hash slot. */
export type Effect = { type: string } & Record<string, unknown>;

/** One effect to carry out, and the id of its step: unique per effect of a record (`<pending id>#<index>`). */
export type EffectStep = { effect: Effect; stepId: string };

/**
 * What follows a record's effects once they are in place, before the record is deleted (webhook deliveries
 * queued, a tally counted): run right after the answer on the request path, so a crash before it ends
 * leaves the record to the sweeper, which carries out the (idempotent) effects again and then this.
 */
export type AfterEffects = () => Promise<void>;

/**
 * Carries out the effects of some types, registered with the outbox by the feature whose scripts write
 * them. `apply` gets every effect of a record of its types at once (to read what they need together); it
 * must be idempotent (a record may be completed twice: by the request that committed it and by the
 * sweeper) and each of its Redis calls must touch one hash slot. `stepId` is for steps that need a marker
 * to be applied once (appending to a stream). `known` is what the write's caller already holds of what the
 * effects need (see Outbox.complete). `schemas`, by type: what an effect of that type must be; one that is
 * not makes its record malformed (never retried), and `apply` gets the effect as the schema parsed it.
 */
export interface EffectHandler<Known = unknown> {
  readonly types: readonly string[];
  readonly schemas?: Readonly<Record<string, z.ZodType<Effect>>>;
  apply(pool: Pool, steps: readonly EffectStep[], known?: Known): Promise<AfterEffects | void>;
}
