import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/**
 * One stored event, as both the WebSocket `/api/v1/ws` and the event inbox `GET /api/v1/events` give it. The
 * OpenAPI document leaves `data` open; its shape by `type` is the one docs/api.md ("Realtime") gives.
 */
type Frame<Type extends string, Data> = { id: string; type: Type; at: string; data: Data };

export type AgentEvent =
  | Frame<'match.created', Schemas['Match']>
  | Frame<'message.created', Schemas['Message']>
  | Frame<'message.read', { match_id: number; reader_id: number; message_id: number }>
  | Frame<'match.ended', { match_id: number; ended_at: string }>
  | Frame<'like.received', { from: Schemas['PublicProfile']; kind: 'super_like'; created_at: string }>
  | Frame<'webhook.disabled', { webhook_id: Schemas['Webhook']['id']; url: string; reason: string }>;

/** A page of the event inbox: the events after `since`, oldest first, and the `since` of the next read. */
export type EventPage = { events: AgentEvent[]; next_cursor: string };

/** Live only, never stored: the other user of a match is typing. It has no `id`. */
export type TypingFrame = { type: 'typing'; data: { match_id: number; user_id: number } };

/** The answer to a typing frame that reached nobody (`validation_failed`, or `not_found` with the `match_id`). */
export type SocketErrorFrame = { type: 'error'; data: { code: string; message: string; match_id?: number } };

/** Whatever the socket sends. */
export type SocketFrame = AgentEvent | TypingFrame | SocketErrorFrame;
