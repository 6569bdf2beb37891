export { SPECTATOR_TOPIC, userTopic } from '../domain/event-topics.js';
