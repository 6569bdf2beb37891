import type { Pool } from '../../platform/core/pool.js';
import type { EventStreamRepository, StreamAppend } from './event-stream-repository.js';

/** Told, within an outbox step, that events were appended to an account's stream (webhooks queue their deliveries). */
export interface UserEventsListener {
  eventsAppended(pool: Pool, userId: number): Promise<void>;
}

/** One entry to append as part of an outbox step (`step`: the step's id, so the entry is appended once). */
export type StepAppend = { entry: StreamAppend; step: string };

/**
 * Appends the entries of outbox steps, each once however often its step runs, and says what follows:
 * the entries appended now counted (those asking for a tally), and the listeners told of every account
 * whose stream was given an entry (also when a re-run finds it appended already).
 */
export class EventAppender {
  private readonly listeners: UserEventsListener[] = [];

  constructor(private readonly streams: EventStreamRepository) {}

  /** Runs `listener` as part of each step that appends events to accounts' streams, after the appends. */
  onUserEvents(listener: UserEventsListener): this {
    this.listeners.push(listener);
    return this;
  }

  async append(pool: Pool, appends: readonly StepAppend[]): Promise<() => Promise<void>> {
    const accounts = new Set<number>();
    const appended: StreamAppend[] = [];
    await Promise.all(
      appends.map(async ({ entry, step }) => {
        if (entry.account !== undefined) accounts.add(entry.account);
        if (await this.streams.append(entry, `${step}@${entry.route}`)) appended.push(entry);
      }),
    );
    return async () => {
      await Promise.all([
        ...appended.map((entry) => this.streams.count(entry)),
        ...[...accounts].flatMap((userId) => this.listeners.map((listener) => listener.eventsAppended(pool, userId))),
      ]);
    };
  }
}
