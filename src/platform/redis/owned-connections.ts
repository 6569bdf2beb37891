import type { Logger } from '../logger.js';
import type { RedisConnectionClient } from 'bullmq';
import type { RedisClient } from './redis.js';

/** A connection handed to BullMQ (a queue's or its worker's): BullMQ alone sends commands on it. */
export type QueueConnection = RedisConnectionClient;

/** Opens a queue's connection and its worker's (redis.ts `queueConnections`), for OwnedConnections to own. */
export type QueueConnections = { queue: () => RedisClient; blocking: () => RedisClient };

/** The Redis connections a queue and its worker own: opened with their errors logged, closed together. */
export class OwnedConnections {
  private readonly connections: RedisClient[] = [];

  constructor(private readonly logger: Logger) {}

  /** Opens one more connection with `open`; its errors are logged at debug level as `<what> connection error`. */
  add(open: () => RedisClient, what: string): QueueConnection {
    const connection = open();
    connection.on('error', (error: Error) => this.logger.debug({ err: error.message }, `${what} connection error`));
    this.connections.push(connection);
    return connection;
  }

  /** Graceful: each connection quits (its replies awaited), then every socket is cut. */
  async quit(): Promise<void> {
    await Promise.allSettled(this.connections.map((connection) => connection.quit()));
    this.disconnect();
  }

  disconnect() {
    for (const connection of this.connections) connection.disconnect();
  }
}
