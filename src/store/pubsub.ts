import type { Redis } from 'ioredis';

type Handler = (message: string) => void;
type Listener = () => void | Promise<void>;

/**
 * One subscriber connection per process, shared by every channel this process listens to. Channels are
 * sharded (SSUBSCRIBE, SPUBLISH: Redis 7): a message goes only to the node that serves its channel's slot.
 *
 * Whatever is published while that connection is down never reaches this process. So a loss is told to
 * `onInterrupted` listeners, and once the connection is back and every channel is subscribed again (what is
 * published from then on will arrive), `onRestored` listeners run one after another, in the order they
 * were added, each awaited: they catch up on what they may have missed from the data in Redis.
 */
export class PubSub {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly interruptedListeners: Listener[] = [];
  private readonly restoredListeners: Listener[] = [];
  /** Counts losses of the subscriber connection, so a restore overtaken by another loss gives up. */
  private losses = 0;
  private hearing = true;

  constructor(private readonly publisher: Redis, private readonly subscriber: Redis) {
    subscriber.on('smessage', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
    subscriber.on('close', () => {
      this.losses++;
      if (!this.hearing) return;
      this.hearing = false;
      for (const listener of this.interruptedListeners) void listener();
    });
    subscriber.on('ready', () => {
      if (!this.hearing) void this.restore(this.losses);
    });
  }

  /** False from the loss of the subscriber connection until it is back and the restore listeners have run. */
  get listening(): boolean {
    return this.hearing;
  }

  async subscribe(channel: string, handler: Handler): Promise<void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.subscriber.ssubscribe(channel);
    }
    set.add(handler);
  }

  publish(channel: string, message: string): Promise<number> {
    return this.publisher.spublish(channel, message) as Promise<number>;
  }

  onInterrupted(listener: Listener) {
    this.interruptedListeners.push(listener);
  }

  onRestored(listener: Listener) {
    this.restoredListeners.push(listener);
  }

  private async restore(losses: number) {
    // ioredis resubscribes by itself too, but only the replies to these say when the channels are live again.
    try {
      await Promise.all([...this.handlers.keys()].map((channel) => this.subscriber.ssubscribe(channel)));
    } catch {
      return; // lost again: the next 'ready' restores
    }
    for (const listener of this.restoredListeners) {
      if (losses !== this.losses) return;
      await Promise.resolve()
        .then(listener)
        .catch(() => {});
    }
    if (losses === this.losses) this.hearing = true;
  }
}
