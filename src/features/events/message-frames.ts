import type { Message } from '../matches/index.js';
import { spectatorMessageCreated } from '../spectator/index.js';

/** Which view of a message event a stream entry refers to: a user's, or the spectators'. */
export type MessageView = 'u' | 's';

/**
 * The frame (JSON without its id) of a `message.created` event in one view. Streams keep a reference to
 * the message instead of this frame (lua/append_event-2.lua), so the frame is built here both when the
 * event is appended (and announced) and when it is read back: the two are the same text.
 */
export function messageFrame(view: MessageView, message: Message): string {
  const at = message.created_at;
  return view === 'u'
    ? JSON.stringify({ type: 'message.created', at, data: message })
    : JSON.stringify({ type: 'message.created', at, synthetic: true, data: { ...spectatorMessageCreated(message), synthetic: true } });
}

/** The reference a stream entry keeps for a message: "<match id>:<message id>". */
export const messageRef = (message: Pick<Message, 'match_id' | 'id'>): string => `${message.match_id}:${message.id}`;

/** The match and message ids of a reference; undefined when malformed. */
export function parseMessageRef(ref: string): { matchId: number; messageId: number } | undefined {
  const [match, message] = ref.split(':');
  const matchId = Number(match);
  const messageId = Number(message);
  return Number.isSafeInteger(matchId) && Number.isSafeInteger(messageId) && matchId > 0 && messageId > 0 ? { matchId, messageId } : undefined;
}
