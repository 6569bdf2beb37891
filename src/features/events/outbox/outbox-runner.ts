import type { Logger } from '../../../platform/logger.js';
import { POOLS, type Pool } from '../../../platform/core/pool.js';
import type { EventStreams, StreamAppend } from '../event-stream-repository.js';
import { afterAnswer } from '../../../platform/core/after-answer.js';
import { ALL_SHARDS } from '../../../platform/redis/key-space.js';
import { MalformedRecordError, parseOutboxRecord } from './outbox-effects.js';
import type { OutboxRecords, PendingRef } from './outbox-repository.js';
import type { UserRepository } from '../../accounts/index.js';
import type { MessageRepository } from '../../matches/index.js';
import type { Message } from '../../matches/index.js';
import type { Outbox, Known } from '../events.js';
import type { EffectHandler } from './effect-handlers.js';
import { buildEvents, isPendingEvent, messagesNeeded, profilesNeeded, type PendingEvent } from '../pending-events.js';
import { isConnectionError, isStoreFullError, ReplicasBehindError } from '../../../platform/redis/redis-errors.js';
import { streamAppends } from '../stream-appends.js';

const SWEEP_BATCH = 200;

/**
 * When the sweeper gives up on a record: after `maxAttempts` sweeps failed to complete it (failures of the
 * record itself: an unreachable or full Redis is no fault of the record and counts for nothing), it moves the
 * record to the dead letter and tells `buried`.
 */
export type DeadLetterPolicy = { maxAttempts: number; buried?: (pool: Pool) => void };

/** Told, within the outbox step, that events were appended to an account's stream (webhooks queue their deliveries). */
export interface UserEventsListener {
  eventsAppended(pool: Pool, userId: number): Promise<void>;
}

/**
 * Completes pending outbox records: carries out every effect of a record (each an idempotent step in one
 * hash slot: an event appended to a stream once; a match listed, touched or unlisted in the users' and the
 * pool's lists), then deletes the record. Runs right after the commit, on an Idempotency-Key
 * replay, and from the sweeper for records left behind by a crash or an unreachable Redis.
 */
export class OutboxRunner implements Outbox {
  private readonly handlers = new Map<string, EffectHandler>();
  private readonly appendListeners: UserEventsListener[] = [];

  constructor(
    private readonly records: OutboxRecords,
    private readonly streams: EventStreams,
    private readonly users: UserRepository,
    private readonly messages: MessageRepository,
    private readonly logger: Logger,
    private readonly deadLetter: DeadLetterPolicy = { maxAttempts: 20 },
  ) {}

  register(handler: EffectHandler): this {
    for (const type of handler.types) this.handlers.set(type, handler);
    return this;
  }

  /**
   * Runs `listener` as part of each step that appends events to accounts' streams, after the appends (also
   * when a re-run finds them appended already): a crash before it finishes leaves the record to the sweeper.
   */
  onUserEvents(listener: UserEventsListener): this {
    this.appendListeners.push(listener);
    return this;
  }

  async complete(pool: Pool, pending: PendingRef, known?: Known): Promise<void> {
    try {
      const record = await this.recordOf(pool, pending);
      if (!record) return;
      const applied = await this.applyEffects(pool, pending.id, record, known);
      await this.finish(pool, pending.shard, pending.id, applied, false);
    } catch (error) {
      this.couldNotComplete(error, pool, pending);
    }
  }

  async completeEffects(pool: Pool, pending: PendingRef, known?: Known): Promise<void> {
    try {
      const record = await this.recordOf(pool, pending);
      if (!record) return;
      const applied = await this.applyEffects(pool, pending.id, record, known);
      afterAnswer(() => this.finish(pool, pending.shard, pending.id, applied, false).catch((error: unknown) => this.couldNotComplete(error, pool, pending)));
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
      this.logger.error({ ...context, attempts }, `pending outbox steps failed ${attempts} times: the record is moved to the dead letter and no longer retried`);
    } catch (uncounted) {
      const stepError = error instanceof Error ? error.message : String(error);
      this.logger.warn({ err: uncounted, pool, shard, pendingId, stepError }, 'could not complete pending outbox steps, nor count the failure; the next sweep retries');
    }
  }

  /**
   * Carries out a record's effects: its list steps and its events appended (each step idempotent, in one
   * slot). Returns what is left once they are in place: see `finish`.
   */
  private async applyEffects(pool: Pool, pendingId: string, record: string, known?: Known): Promise<Applied> {
    // A record that is not JSON, or not the effects it should be, throws here: logged, and left to the sweeper,
    // which buries it in the dead letter at its first attempt.
    const effects = parseOutboxRecord(record);
    const steps: Promise<unknown>[] = [];
    const events: Array<{ spec: PendingEvent; step: string }> = [];
    effects.forEach((effect, i) => {
      const step = `${pendingId}#${i}`;
      if (isPendingEvent(effect)) return void events.push({ spec: effect, step });
      const handler = this.handlers.get(effect.type);
      if (!handler) throw new Error(`no outbox step for effects of type ${effect.type}`);
      steps.push(handler.apply(pool, effect, step));
    });
    const [applied] = await Promise.all([events.length > 0 ? this.appendEvents(pool, events, known) : NOTHING_APPENDED, ...steps]);
    return applied;
  }

  /**
   * What follows a record's effects: the events appended counted (the spectator tally) and told to the
   * listeners (webhooks queue their deliveries), then the record deleted. Until the deletion the record
   * stays pending, so a crash before it leaves the listeners to the sweeper, which finds the events
   * appended already. The request path does not wait for the deletion (`awaitDeletion` false); should it
   * be lost, the sweeper runs the idempotent steps again.
   */
  private async finish(pool: Pool, shard: number, pendingId: string, { recipients, appended }: Applied, awaitDeletion: boolean): Promise<void> {
    await Promise.all([
      ...appended.map((entry) => this.streams.count(entry)),
      ...[...recipients].flatMap((userId) => this.appendListeners.map((listener) => listener.eventsAppended(pool, userId))),
    ]);
    const deleted = this.records.complete(pool, shard, pendingId);
    if (awaitDeletion) return deleted;
    deleted.catch((error: unknown) => this.logger.debug({ err: error, pool, pendingId }, 'pending record not deleted; the sweeper will'));
  }

  private async appendEvents(pool: Pool, events: ReadonlyArray<{ spec: PendingEvent; step: string }>, known: Known = {}): Promise<Applied> {
    const users = new Map(known.users);
    const messages = new Map(known.messages);
    const specs = events.map((e) => e.spec);
    const missing = profilesNeeded(specs).filter((id) => !users.has(id));
    const unread = messagesNeeded(specs).filter((ref) => !messages.has(ref.messageId));
    const [found, read] = await Promise.all([this.users.findMany(pool, missing), unread.length > 0 ? this.messages.findMany(pool, unread) : new Map<number, Message>()]);
    for (const user of found) if (user) users.set(user.id, user);
    for (const [id, message] of read) messages.set(id, message);
    const recipients = new Set<number>();
    const appended: StreamAppend[] = [];
    const appends = events.flatMap(({ spec, step }) =>
      buildEvents(pool, [spec], users, messages).flatMap(({ event, at }) => {
        for (const recipient of event.recipients) recipients.add(recipient);
        return streamAppends(event, at).map(async (entry) => {
          if (await this.streams.append(entry, `${step}@${entry.route}`)) appended.push(entry);
        });
      }),
    );
    await Promise.all(appends);
    return { recipients, appended };
  }
}

/** What a record's effects appended: the accounts whose streams were given events, and the entries appended now. */
type Applied = { recipients: ReadonlySet<number>; appended: readonly StreamAppend[] };

const NOTHING_APPENDED: Applied = { recipients: new Set(), appended: [] };
