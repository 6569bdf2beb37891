import type { Logger } from '../logger.js';
import { DEFAULT_CONFIG } from '../../config.js';
import { POOLS, type Pool } from '../core/pool.js';
import { afterAnswer } from '../core/after-answer.js';
import { ALL_SHARDS } from '../redis/key-space.js';
import { isConnectionError, isStoreFullError, ReplicasBehindError } from '../redis/redis-errors.js';
import { MalformedRecordError, parseOutboxRecord } from './outbox-effects.js';
import type { OutboxRepository, PendingRef } from './outbox-repository.js';
import type { Outbox } from './outbox.js';
import type { AfterEffects, Effect, EffectHandler, EffectStep } from './effect-handlers.js';

const SWEEP_BATCH = 200;

/**
 * When the sweeper gives up on a record: after `maxAttempts` sweeps failed to complete it (failures of the
 * record itself: an unreachable or full Redis is no fault of the record and counts for nothing), it moves the
 * record to the dead letter and tells `buried`.
 */
export type DeadLetterPolicy = { maxAttempts: number; buried?: (pool: Pool) => void };

/**
 * Completes pending outbox records: carries out every effect of a record through the handler registered
 * for its type (each an idempotent step in one hash slot), runs what follows them, then deletes the record.
 * Runs right after the commit, on an Idempotency-Key replay, and from the sweeper for records left behind
 * by a crash or an unreachable Redis. It knows no effect itself: the features register theirs.
 */
export class OutboxRunner<Known = unknown> implements Outbox<Known> {
  private readonly handlers = new Map<string, EffectHandler<Known>>();
  private readonly schemas: Record<string, NonNullable<EffectHandler['schemas']>[string]> = {};

  constructor(
    private readonly records: OutboxRepository,
    private readonly logger: Logger,
    private readonly deadLetter: DeadLetterPolicy = { maxAttempts: DEFAULT_CONFIG.OUTBOX_MAX_ATTEMPTS },
  ) {}

  /** Carries out the effects of `handler.types` with `handler` from now on. */
  register(handler: EffectHandler<Known>): this {
    for (const type of handler.types) {
      this.handlers.set(type, handler);
      const schema = handler.schemas?.[type];
      if (schema) this.schemas[type] = schema;
    }
    return this;
  }

  async complete(pool: Pool, pending: PendingRef, known?: Known): Promise<void> {
    try {
      const record = await this.recordOf(pool, pending);
      if (!record) return;
      const after = await this.applyEffects(pool, pending.id, record, known);
      await this.finish(pool, pending.shard, pending.id, after, false);
    } catch (error) {
      this.couldNotComplete(error, pool, pending);
    }
  }

  async completeEffects(pool: Pool, pending: PendingRef, known?: Known): Promise<void> {
    try {
      const record = await this.recordOf(pool, pending);
      if (!record) return;
      const after = await this.applyEffects(pool, pending.id, record, known);
      afterAnswer(() => this.finish(pool, pending.shard, pending.id, after, false).catch((error: unknown) => this.couldNotComplete(error, pool, pending)));
    } catch (error) {
      this.couldNotComplete(error, pool, pending);
    }
  }

  completeAfterAnswer(pool: Pool, pending: PendingRef, known?: Known): void {
    afterAnswer(() => this.complete(pool, pending, known));
  }

  private recordOf(pool: Pool, pending: PendingRef): Promise<string | null> {
    return pending.record !== undefined ? Promise.resolve(pending.record) : this.records.find(pool, pending.shard, pending.id);
  }

  private couldNotComplete(error: unknown, pool: Pool, pending: PendingRef) {
    this.logger.warn({ err: error, pool, pendingId: pending.id }, 'could not complete the outbox steps yet; the sweeper will');
  }

  /**
   * Completes every record committed at least `olderThanMs` ago, in every shard; returns how many. A record
   * that fails counts one attempt more, and goes to the dead letter at the policy's last (a malformed one at once).
   */
  async sweep(olderThanMs: number): Promise<number> {
    const committedBy = Date.now() - olderThanMs;
    const counts = await Promise.all(
      POOLS.flatMap((pool) =>
        ALL_SHARDS.map(async (shard) => {
          let completed = 0;
          for (const { id, record } of await this.records.due(pool, shard, committedBy, SWEEP_BATCH)) {
            try {
              await this.finish(pool, shard, id, await this.applyEffects(pool, id, record), true);
              completed++;
            } catch (error) {
              await this.failed(pool, shard, id, record, error);
            }
          }
          return completed;
        }),
      ),
    );
    return counts.reduce((sum, n) => sum + n, 0);
  }

  /** Counts a failed sweep of a record; at the last attempt, moves the record to the dead letter. */
  private async failed(pool: Pool, shard: number, pendingId: string, record: string, error: unknown): Promise<void> {
    const context = { err: error, pool, shard, pendingId };
    if (isConnectionError(error) || isStoreFullError(error) || error instanceof ReplicasBehindError) {
      this.logger.warn(context, 'could not complete pending outbox steps: Redis is unreachable, full or its replicas behind; the next sweep retries');
      return;
    }
    try {
      const attempts = await this.records.noteFailure(pool, shard, pendingId);
      const { maxAttempts } = this.deadLetter;
      // A record its schema refuses reads the same at every attempt: retrying it would only wait.
      if (attempts < maxAttempts && !(error instanceof MalformedRecordError)) {
        this.logger.warn({ ...context, attempts, maxAttempts }, 'could not complete pending outbox steps; the next sweep retries');
        return;
      }
      const lastError = error instanceof Error ? error.message : String(error);
      if (!(await this.records.bury(pool, shard, pendingId, record, { attempts, lastError }))) return;
      this.deadLetter.buried?.(pool);
      this.logger.error(
        { ...context, attempts },
        `pending outbox steps failed ${attempts} times: the record is moved to the dead letter and no longer retried`,
      );
    } catch (uncounted) {
      const stepError = error instanceof Error ? error.message : String(error);
      this.logger.warn(
        { err: uncounted, pool, shard, pendingId, stepError },
        'could not complete pending outbox steps, nor count the failure; the next sweep retries',
      );
    }
  }

  /** A record's effects, as the handlers registered for their types read them (see parseOutboxRecord). */
  effectsOf(record: string): Effect[] {
    return parseOutboxRecord(record, this.schemas);
  }

  /**
   * Carries out a record's effects, each handler given those of its types together. Returns what follows
   * them once they are in place: see `finish`.
   */
  private async applyEffects(pool: Pool, pendingId: string, record: string, known?: Known): Promise<AfterEffects[]> {
    // A record that is not JSON, or not the effects it should be, throws here: logged, and left to the sweeper,
    // which buries it in the dead letter at its first attempt.
    const effects = this.effectsOf(record);
    const byHandler = new Map<EffectHandler<Known>, EffectStep[]>();
    effects.forEach((effect: Effect, i) => {
      const handler = this.handlers.get(effect.type);
      if (!handler) throw new Error(`no outbox step for effects of type ${effect.type}`);
      const steps = byHandler.get(handler) ?? [];
      steps.push({ effect, stepId: `${pendingId}#${i}` });
      byHandler.set(handler, steps);
    });
    const after = await Promise.all([...byHandler].map(([handler, steps]) => handler.apply(pool, steps, known)));
    return after.filter((next) => next !== undefined);
  }

  /**
   * What follows a record's effects (each handler's: the events appended counted and told to the
   * listeners, so webhooks queue their deliveries), then the record deleted. Until the deletion the record
   * stays pending, so a crash before it leaves what follows to the sweeper, which finds the effects in
   * place already. The request path does not wait for the deletion (`awaitDeletion` false); should it be
   * lost, the sweeper runs the idempotent steps again.
   */
  private async finish(pool: Pool, shard: number, pendingId: string, after: readonly AfterEffects[], awaitDeletion: boolean): Promise<void> {
    await Promise.all(after.map((next) => next()));
    const deleted = this.records.complete(pool, shard, pendingId);
    if (awaitDeletion) return deleted;
    deleted.catch((error: unknown) => this.logger.debug({ err: error, pool, pendingId }, 'pending record not deleted; the sweeper will'));
  }
}
