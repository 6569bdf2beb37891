import type { Redis } from 'ioredis';

type Handler = (message: string) => void;

/** One subscriber connection per process, shared by every channel this process listens to. */
export class PubSub {
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(private readonly publisher: Redis, private readonly subscriber: Redis) {
    subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
  }

  async subscribe(channel: string, handler: Handler): Promise<void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.subscriber.subscribe(channel);
    }
    set.add(handler);
  }

  publish(channel: string, message: string): Promise<number> {
    return this.publisher.publish(channel, message);
  }
}
