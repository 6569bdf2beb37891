import { Cluster } from 'ioredis';
import type { RedisClient } from './redis.js';

type Handler = (message: string) => void;
type Listener = () => void | Promise<void>;

/**
 * Sharded pub/sub (SSUBSCRIBE/SPUBLISH, Redis 7): a channel lives in the hash slot of its name, so on a
 * Redis Cluster a message travels only within the shard that owns it, and a subscriber listens to the
 * master of each of its channels (ioredis' `shardedSubscribers`: one connection per master). A standalone
 * Redis takes the same commands, so both topologies share one code path.
 *
 * Whatever is published while a subscriber connection is down never reaches this process. So a loss is told
 * to `onInterrupted` listeners, and once the connections are back and every channel is subscribed again
 * (what is published from then on will arrive), `onRestored` listeners run one after another, in the order
 * they were added, each awaited: they catch up on what they may have missed from the data in Redis.
 */
export class PubSub {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly interruptedListeners: Listener[] = [];
  private readonly restoredListeners: Listener[] = [];
  /** Counts losses of a subscriber connection, so a restore overtaken by another loss gives up. */
  private losses = 0;
  private hearing = true;

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
  ) {
    subscriber.on('smessage', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
    const lost = () => this.lost();
    const back = () => {
      if (!this.hearing) void this.restore(this.losses);
    };
    subscriber.on('close', lost);
    subscriber.on('ready', back);
    if (subscriber instanceof Cluster) {
      // One master's subscriber connection ended; ioredis replaces it once the slot map is read again and
      // then says `subscribersReady` (also after a failed attempt: the restore's own SSUBSCRIBE tells).
      subscriber.on('-node', lost);
      // A subscriber connection dropped because its master no longer serves the slots (a replica was promoted
      // while the old master hung without closing the connection): ioredis closes it without `-node`.
      subscriber.on('-subscriber', lost);
      subscriber.on('subscribersReady', back);
    }
  }

  /** False from the loss of a subscriber connection until it is back and the restore listeners have run. */
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

  /** Resolves with how many subscribers (of that channel's shard) received it. */
  async publish(channel: string, message: string): Promise<number> {
    return Number(await this.publisher.spublish(channel, message));
  }

  onInterrupted(listener: Listener) {
    this.interruptedListeners.push(listener);
  }

  onRestored(listener: Listener) {
    this.restoredListeners.push(listener);
  }

  private lost() {
    this.losses++;
    if (!this.hearing) return;
    this.hearing = false;
    for (const listener of this.interruptedListeners) void listener();
  }

  private async restore(losses: number) {
    // ioredis subscribes again by itself too, but only the replies to these say when the channels are live again.
    // One channel per call: on a cluster, the channels of one SSUBSCRIBE must share a slot.
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
