import { randomBytes } from 'node:crypto';
import type { Announcement, StoredEvent } from '../stored-event.js';
import type { LiveEvents } from '../live-events.js';

/** Live events of one topic kept aside while a socket of that topic replays its missed events. */
export type Hold = { topic: string; events: StoredEvent[]; overflowed: boolean };

/** A replay that falls this far behind the live events is given up (the socket is told to come back). */
export const MAX_HELD_EVENTS = 10_000;

/** The route of a fence announcement: not a topic, never relayed to sockets. */
const FENCE_ROUTE = '!fence';

/**
 * The id of an announcement with no stream entry behind it (a typing frame): sent to the topic's sockets
 * live, never held for a replaying socket and never waking an inbox read, since neither could find it.
 */
export const EPHEMERAL_ID = '';

/**
 * Relays every announced event of every process to this process's sockets: one sharded pub/sub subscriber
 * per process, following every shard's channel; fan-out by uWS topic (done in C++). A socket that is replaying takes a hold on its topic; the
 * events announced meanwhile are kept for it, so nothing falls between the replay and going live.
 */
export class EventRelay {
  private readonly holds = new Map<string, Set<Hold>>();
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly fences = new Map<string, () => void>();
  private readonly nonce = randomBytes(6).toString('hex');
  private fenceSeq = 0;
  private readonly nextFence = new Map<string, Promise<void>>();
  private readonly screens: Array<(event: Announcement) => boolean> = [];
  private live?: LiveEvents;

  constructor(private readonly publishToTopic: (topic: string, frame: string) => void) {}

  async start(live: LiveEvents): Promise<void> {
    this.live = live;
    await live.follow((event) => this.relay(event));
  }

  hold(topic: string): Hold {
    const hold: Hold = { topic, events: [], overflowed: false };
    let set = this.holds.get(topic);
    if (!set) this.holds.set(topic, (set = new Set()));
    set.add(hold);
    return hold;
  }

  release(hold: Hold) {
    const set = this.holds.get(hold.topic);
    if (!set) return;
    set.delete(hold);
    if (set.size === 0) this.holds.delete(hold.topic);
  }

  /**
   * Shows `screen` every announcement before it is relayed, in the order of its channel; an ephemeral one
   * (EPHEMERAL_ID) it answers false to is dropped. Events with a stream entry are always relayed.
   */
  screen(screen: (event: Announcement) => boolean): void {
    this.screens.push(screen);
  }

  /** Calls `listener` on each event announced for `topic` from now on, until the returned function is called. */
  watch(topic: string, listener: () => void): () => void {
    let set = this.watchers.get(topic);
    if (!set) this.watchers.set(topic, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.watchers.get(topic) === set) this.watchers.delete(topic);
    };
  }

  /**
   * Resolves once every event announced on `channel` whose entry was in Redis when this was called has been
   * relayed here. An entry read by XRANGE may have its announcement still on the way (it travels on another
   * connection); a fence published on the stream's channel after the read comes back behind it, because
   * Redis delivers one channel's messages to a subscriber in the order they were published. Callers in the
   * same tick share one fence per channel.
   */
  fence(channel: string, timeoutMs: number): Promise<void> {
    const shared = this.nextFence.get(channel);
    if (shared) return shared;
    const fence = new Promise<void>((resolve, reject) => {
      queueMicrotask(() => {
        this.nextFence.delete(channel);
        const token = `${this.nonce}:${++this.fenceSeq}`;
        const timer = setTimeout(() => {
          this.fences.delete(token);
          reject(new Error('the live relay did not answer in time'));
        }, timeoutMs);
        this.fences.set(token, () => {
          clearTimeout(timer);
          resolve();
        });
        this.live!.announce(channel, { route: FENCE_ROUTE, id: token, frame: '' }).catch((error: unknown) => {
          clearTimeout(timer);
          this.fences.delete(token);
          reject(error);
        });
      });
    });
    this.nextFence.set(channel, fence);
    return fence;
  }

  private relay(event: Announcement) {
    if (event.route === FENCE_ROUTE) {
      const passed = this.fences.get(event.id);
      this.fences.delete(event.id);
      passed?.();
      return;
    }
    let kept = true;
    for (const screen of this.screens) kept = screen(event) && kept;
    if (event.id === EPHEMERAL_ID) {
      if (kept) this.publishToTopic(event.route, event.frame);
      return;
    }
    this.publishToTopic(event.route, event.frame);
    const watchers = this.watchers.get(event.route);
    if (watchers) for (const listener of watchers) listener();
    const holds = this.holds.get(event.route);
    if (!holds) return;
    for (const hold of holds) {
      if (hold.events.length < MAX_HELD_EVENTS) hold.events.push({ id: event.id, frame: event.frame });
      else hold.overflowed = true;
    }
  }
}
