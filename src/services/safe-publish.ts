import type { Logger } from '../logger.js';
import type { DomainEvent, EventPublisher } from './events.js';

/**
 * Publishes after a write that already happened: a failure to notify is logged, never turned into a
 * failed request (the data is stored; clients catch up by reading it).
 */
export function safePublisher(events: EventPublisher, logger: Logger) {
  return async (event: DomainEvent): Promise<void> => {
    try {
      await events.publish(event);
    } catch (error) {
      logger.error({ err: error, type: event.type, pool: event.pool }, 'could not publish event');
    }
  };
}
