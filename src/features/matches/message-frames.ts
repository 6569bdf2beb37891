import type { FrameBuilder, StoredReference } from '../events/index.js';
import { poolOfKey } from '../../platform/redis/keys.js';
import type { Message } from './match.js';
import type { MessageRepository } from './message-repository.js';

/** The kind of an account's stream entry that refers to a message in its thread (stored as the entry's field). */
export const MESSAGE_KIND = 'u';

/**
 * The frame (JSON without its id) of a `message.created` event in an account's view. Streams keep a
 * reference to the message instead of this frame (lua/append_event-2.lua), so the frame is built here both
 * when the event is appended (and announced) and when it is read back: the two are the same text.
 */
export const messageFrame = (message: Message): string => JSON.stringify({ type: 'message.created', at: message.created_at, data: message });

/** The reference a stream entry keeps for a message: "<match id>:<message id>". */
export const messageRef = (message: Pick<Message, 'match_id' | 'id'>): string => `${message.match_id}:${message.id}`;

/** The match and message ids of a reference; undefined when malformed. */
export function parseMessageRef(ref: string): { matchId: number; messageId: number } | undefined {
  const [match, message] = ref.split(':');
  const matchId = Number(match);
  const messageId = Number(message);
  return Number.isSafeInteger(matchId) && Number.isSafeInteger(messageId) && matchId > 0 && messageId > 0 ? { matchId, messageId } : undefined;
}

/**
 * The frames of entries that refer to messages, built in one view from the messages their threads still
 * keep (one read each, sent together): an entry whose message is gone (unmatched, or trimmed) has none.
 */
export class MessageFrames implements FrameBuilder {
  constructor(
    private readonly messages: Pick<MessageRepository, 'findMany'>,
    private readonly frameOf: (message: Message) => string = messageFrame,
  ) {}

  async frames(key: string, entries: readonly StoredReference[]): Promise<Map<string, string>> {
    const refs = entries.map(({ id, ref }) => ({ id, ref: parseMessageRef(ref) }));
    const wanted = refs.flatMap(({ ref }) => (ref ? [ref] : []));
    const found = wanted.length > 0 ? await this.messages.findMany(poolOfKey(key), wanted) : new Map<number, Message>();
    const frames = new Map<string, string>();
    for (const { id, ref } of refs) {
      const message = ref && found.get(ref.messageId);
      if (message) frames.set(id, this.frameOf(message));
    }
    return frames;
  }
}
