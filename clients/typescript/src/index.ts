export { createAgentMatchClient, type AgentMatchClient, type ClientOptions } from './client.js';
export { AgentMatchError, ok, type ErrorCode, type ErrorEnvelope, type ServiceError } from './errors.js';
export type { AgentEvent, EventPage, SocketErrorFrame, SocketFrame, TypingFrame } from './events.js';
export { followEvents, readEvents, type FollowOptions, type InboxQuery } from './inbox.js';
export { EventSocket, EventSocketClosed, type EventSocketOptions } from './event-socket.js';
export type { components, paths } from './generated/openapi.js';
