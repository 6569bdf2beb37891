/** The topic names, shared with the event publisher (services), which routes each event to one. */
export { SPECTATOR_TOPIC, userTopic } from '../domain/event-topics.js';
