import type { Logger } from '../logger.js';
import type { EventOutboxStore } from '../store/event-outbox-store.js';
import { POOLS, type Pool } from '../domain/pool.js';
import type { UserRecord, UserRepository } from '../store/user-repository.js';
import type { PendingEventFlusher } from './events.js';
import { buildEvents, messageMatchOf, profilesNeeded, type PendingEvent } from './pending-events.js';
import { streamAppends } from './stream-event-publisher.js';

const SWEEP_BATCH = 200;

/**
 * Turns pending records into event frames and flushes them (lua/flush_events.lua appends and deletes the
 * record at once, and does nothing for a record already gone, so each write's events land exactly once),
 * right after the commit, on an Idempotency-Key replay, and from the sweeper for records left behind.
 */
export class EventOutbox implements PendingEventFlusher {
  constructor(
    private readonly store: EventOutboxStore,
    private readonly users: UserRepository,
    private readonly logger: Logger,
  ) {}

  async flush(pool: Pool, pendingId: string, record: string, known?: Map<number, UserRecord>): Promise<void> {
    try {
      await this.flushRecord(pool, pendingId, record, known);
    } catch (error) {
      this.logger.warn({ err: error, pool, pendingId }, 'could not append events yet; the sweeper will');
    }
  }

  async flushPending(pool: Pool, pendingId: string): Promise<void> {
    try {
      const record = await this.store.find(pool, pendingId);
      if (record) await this.flushRecord(pool, pendingId, record);
    } catch (error) {
      this.logger.warn({ err: error, pool, pendingId }, 'could not append events yet; the sweeper will');
    }
  }

  /** Flushes every record committed at least `olderThanMs` ago; returns how many it appended. */
  async sweep(olderThanMs: number): Promise<number> {
    let appended = 0;
    for (const pool of POOLS) {
      for (const { id, record } of await this.store.due(pool, Date.now() - olderThanMs, SWEEP_BATCH)) {
        try {
          if (await this.flushRecord(pool, id, record)) appended++;
        } catch (error) {
          this.logger.error({ err: error, pool, pendingId: id }, 'could not append pending events');
        }
      }
    }
    return appended;
  }

  private async flushRecord(pool: Pool, pendingId: string, record: string, known?: Map<number, UserRecord>): Promise<boolean> {
    const specs = JSON.parse(record) as PendingEvent[];
    const users = new Map(known);
    const missing = profilesNeeded(specs).filter((id) => !users.has(id));
    for (const user of await this.users.findMany(pool, missing)) if (user) users.set(user.id, user);
    const entries = buildEvents(pool, specs, users).flatMap(({ event, at }) => streamAppends(event, at));
    return this.store.flush(pool, pendingId, entries, messageMatchOf(specs));
  }
}
