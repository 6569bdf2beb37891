import type { Pool } from '../../platform/core/pool.js';
import type { EventBody, EventStreamRepository } from '../events/index.js';
import { keys } from '../../platform/redis/keys.js';
import type { WebhookRecord, WebhookRepository } from './webhook-repository.js';
import type { DeliveryScheduler } from './webhook-scheduling.js';

const PAGE = 100;
const PAGES_PER_LOOK = 20;

/**
 * Each webhook's delivery chain: the webhook's cursor is the last event of the account's stream it was
 * given, and its next delivery is the first later event of a type it takes. One job at a time carries the
 * chain (its id names the event, so queueing it again is a no-op); the job queues the next one when it is
 * done, which is how deliveries keep the stream's order however many workers run.
 */
export class WebhookChains {
  constructor(
    private readonly store: WebhookRepository,
    private readonly scheduler: DeliveryScheduler,
    /** The accounts' streams, read with every event's frame as its webhook would be sent it. */
    private readonly streams: Pick<EventStreamRepository, 'bodiesAfter'>,
  ) {}

  /** After events were appended to an account's stream: makes sure each of its enabled webhooks has its next job queued. */
  async eventsAppended(pool: Pool, userId: number): Promise<void> {
    if ((await this.store.count(pool, userId)) === 0) return;
    await Promise.all((await this.store.list(pool, userId)).map((hook) => this.kick(pool, userId, hook)));
  }

  /** Queues the job of the webhook's next event, if it is enabled and has one. */
  async kick(pool: Pool, userId: number, hook: WebhookRecord): Promise<void> {
    if (!hook.enabled) return;
    const next = await this.next(pool, userId, hook);
    if (next) await this.scheduler.schedule({ pool, userId, webhookId: hook.id, eventId: next.id });
  }

  /** The first event after the webhook's cursor of a type it takes. Long runs of other events move the cursor past them. */
  async next(pool: Pool, userId: number, hook: WebhookRecord): Promise<EventBody | undefined> {
    let cursor = hook.cursor;
    for (let page = 0; page < PAGES_PER_LOOK; page++) {
      const entries = await this.streams.bodiesAfter(keys.userEvents(pool, userId), cursor, PAGE);
      const found = entries.find((entry) => hook.eventTypes.includes(eventTypeOf(entry.body)));
      if (found) return found;
      if (entries.length < PAGE) return undefined;
      const skipped = entries.at(-1)!.id;
      if (await this.store.update(pool, userId, hook.id, { cursor: skipped }, { field: 'cursor', is: cursor })) cursor = skipped;
      else return undefined;
    }
    return undefined;
  }
}

/** The `type` of a stream entry's frame JSON. */
export function eventTypeOf(body: string): string {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : '';
  } catch {
    return '';
  }
}
