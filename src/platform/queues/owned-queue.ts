import type { Logger } from '../logger.js';
import { OwnedConnections, type QueueConnection, type QueueConnections } from '../redis/owned-connections.js';

/** A feature's queue (its BullMQ queue inside), as its owner closes it. */
export type ClosableQueue = { close(): Promise<void> };
/** A worker, as its owner stops it (QueueWorker). */
export type StoppableWorker = { stop(): Promise<void>; disconnect(): void };

/** A queue opened on a connection of its own, for OwnedQueue (`openQueue`). */
export type OpenedQueue<Q> = { name: string; queue: Q; connections: QueueConnections; owned: OwnedConnections };

/**
 * Opens the queue's connection (its errors logged as `<name> queue connection error`), connects it, then
 * builds the queue on it with `build`.
 */
export async function openQueue<Q>(
  name: string,
  connections: QueueConnections,
  logger: Logger,
  build: (connection: QueueConnection) => Q,
): Promise<OpenedQueue<Q>> {
  const owned = new OwnedConnections(logger);
  const connection = owned.add(connections.queue, `${name} queue`);
  await connection.connect();
  return { name, queue: build(connection), connections, owned };
}

/** A BullMQ queue and, once started, a worker of it, with the Redis connections they own. */
export class OwnedQueue<Q extends ClosableQueue> {
  readonly queue: Q;
  private worker?: StoppableWorker;

  constructor(private readonly opened: OpenedQueue<Q>) {
    this.queue = opened.queue;
  }

  /** Graceful: the worker finishes the jobs in hand, then the queue and every connection close. */
  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.queue.close();
    await this.opened.owned.quit();
  }

  /** Cuts every connection at once (when a graceful stop takes too long). */
  disconnect() {
    this.worker?.disconnect();
    this.opened.owned.disconnect();
  }

  /** Opens the worker's blocking connection (its errors logged as `<name> worker connection error`) and starts the worker on it. */
  protected async runWorker(start: (connection: QueueConnection) => Promise<StoppableWorker>): Promise<void> {
    const connection = this.opened.owned.add(this.opened.connections.blocking, `${this.opened.name} worker`);
    this.worker = await start(connection);
  }
}
