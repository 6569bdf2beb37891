import { errors } from '../../../platform/core/errors.js';
import type { TokenPrincipal } from '../../../platform/core/principal.js';
import { refusalError, type Refusal, type TokenHolder } from '../../accounts/index.js';
import { retryAfterSeconds } from '../../../platform/limits/account-limits.js';
import { afterOf } from '../event-ids.js';
import type { EventReplay, ReplayStream } from '../event-replay.js';
import { userTopic } from '../event-topics.js';
import type { StoredEvent } from '../stored-event.js';

/** What the inbox needs of the live relay: a call on each event announced for a topic, in whichever process it was appended. */
export type TopicWatch = { watch(topic: string, listener: () => void): () => void };

export type InboxPolicy = {
  /** Reads with `wait` one account may have in progress at once, in this process. */
  maxWaitingPerAccount: number;
};

export type InboxDeps = {
  replay: EventReplay;
  relay: TopicWatch;
  /** False while this process cannot hear live events: a waiting read then looks at the stream again every second. */
  relayUp: () => boolean;
  policy: InboxPolicy;
  /** Where a held read registers its token, so that it ends the moment the token no longer holds. */
  tokens: { addHolder(holder: TokenHolder): void; refusal(claims: TokenPrincipal): Promise<Refusal | undefined> };
};

/** `since` as the client gave it (validated; undefined: from now on), the page size, and how long to wait when nothing is newer. */
export type InboxQuery = { since?: string; limit: number; waitSeconds: number };

/** Events oldest first, each as its frame, and where the next read resumes (the last event's id, else the `since` read after). */
export type InboxPage = { events: StoredEvent[]; nextCursor: string };

type Waiter = { claims: TokenPrincipal; deadline: number; wake: () => void; refused?: Refusal };

/** How often a waiting read looks at the stream again while this process cannot hear live events. */
const UNHEARD_RECHECK_MS = 1_000;
const idle = () => {};

/**
 * The event inbox over plain HTTP: an account's events after a cursor, read from the same stream the
 * WebSocket replays. A read with `wait` that finds nothing newer is held until an event for the account is
 * announced (by any process), the wait ends, the client leaves or the server stops; it then reads the stream
 * again, the one source of truth. It watches the account's topic before its first read, so an event appended
 * at any moment is either read or wakes it: no gap, and no duplicate since the cursor is the stream's id.
 */
export class EventInbox {
  private readonly waiting = new Map<string, Set<Waiter>>();
  private stopped = false;

  constructor(private readonly deps: InboxDeps) {
    deps.tokens.addHolder({
      heldTokens: () => [...this.waiting.values()].flatMap((set) => [...set].map((waiter) => waiter.claims)),
      tokenRefused: (jti, refusal) => {
        for (const set of this.waiting.values()) {
          for (const waiter of set) {
            if (waiter.claims.jti !== jti) continue;
            waiter.refused = refusal;
            waiter.wake();
          }
        }
      },
    });
  }

  /** Reads held in this process now (waiting for an event). */
  get waitingCount(): number {
    let count = 0;
    for (const set of this.waiting.values()) count += set.size;
    return count;
  }

  /**
   * Up to `limit` events after `since`; with `waitSeconds`, held while none is newer (see the class). A held
   * read holds its token: once the token no longer holds (a logout, log out everywhere, a password change,
   * a suspension, leaving), it answers that refusal at once and delivers nothing more.
   */
  async read(account: TokenPrincipal, query: InboxQuery, signal: AbortSignal): Promise<InboxPage> {
    const stream = this.deps.replay.userStream(account.pool, account.userId);
    if (query.waitSeconds === 0 || this.stopped) return this.page(stream, query.since ?? (await this.start(stream)), query.limit);
    const key = `${account.pool}:${account.userId}`;
    const waiter = this.enter(key, account, Date.now() + query.waitSeconds * 1000);
    let announced: boolean;
    const unwatch = this.deps.relay.watch(userTopic(account.pool, account.userId), () => {
      announced = true;
      waiter.wake();
    });
    try {
      const since = query.since ?? (await this.start(stream));
      for (;;) {
        announced = false;
        const page = await this.page(stream, since, query.limit);
        const refused = waiter.refused ?? (page.events.length > 0 ? await this.deps.tokens.refusal(account) : undefined);
        if (refused) throw refusalError(refused);
        if (page.events.length > 0 || this.stopped || signal.aborted || Date.now() >= waiter.deadline) return page;
        if (!announced) await this.sleep(waiter, signal);
      }
    } finally {
      unwatch();
      this.leave(key, waiter);
    }
  }

  /** Answers every held read now (each reads the stream once more), and holds no more: the server is stopping. */
  stop() {
    this.stopped = true;
    this.wakeAll();
  }

  /** Every held read looks at the stream again (the live relay was down, and announcements may have been missed). */
  wakeAll() {
    for (const set of this.waiting.values()) for (const waiter of set) waiter.wake();
  }

  private async page(stream: ReplayStream, since: string, limit: number): Promise<InboxPage> {
    const events = await this.deps.replay.after(stream, afterOf(since), limit);
    return { events, nextCursor: events.at(-1)?.id ?? since };
  }

  /** Where a reader without a cursor begins: after the newest event kept ("0" for an empty stream). */
  private async start(stream: ReplayStream): Promise<string> {
    return (await this.deps.replay.lastId(stream)) ?? '0';
  }

  /** Takes one of the account's places for a held read; 429 when all are taken, to retry once the soonest ends. */
  private enter(key: string, claims: TokenPrincipal, deadline: number): Waiter {
    let set = this.waiting.get(key);
    if (!set) this.waiting.set(key, (set = new Set()));
    const max = this.deps.policy.maxWaitingPerAccount;
    if (set.size >= max) {
      const soonest = Math.min(...[...set].map((waiter) => waiter.deadline));
      throw errors.rateLimited(retryAfterSeconds(soonest - Date.now()), `event reads waiting at once from this account (at most ${max})`);
    }
    const waiter: Waiter = { claims, deadline, wake: idle };
    set.add(waiter);
    return waiter;
  }

  private leave(key: string, waiter: Waiter) {
    const set = this.waiting.get(key);
    set?.delete(waiter);
    if (set?.size === 0) this.waiting.delete(key);
  }

  /** Until the waiter is woken, its wait ends or the client leaves (or a second passes, while live events cannot be heard). */
  private sleep(waiter: Waiter, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const left = waiter.deadline - Date.now();
      const timer = setTimeout(() => done(), this.deps.relayUp() ? left : Math.min(left, UNHEARD_RECHECK_MS));
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        waiter.wake = idle;
        resolve();
      };
      waiter.wake = done;
      signal.addEventListener('abort', done);
    });
  }
}
