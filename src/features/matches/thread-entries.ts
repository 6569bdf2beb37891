import type { Message } from './match.js';

/**
 * A thread entry as Redis answers it (XRANGE and friends): its id `<message id>-<created at, ms>` and its
 * fields, flat. Every entry of a thread has the same five fields in the same order, so a stream stores their
 * names once a node and each message costs its body and a few bytes (keys.thread).
 */
export type ThreadEntry = [id: string, fields: string[]];

/** The fields of a new entry, in their stored order (lua/append_message-7.lua adds the sent counts `a` and `z`). */
export function entryFields(message: Pick<Message, 'sender_id' | 'body' | 'shared_interests_mentioned'>): string[] {
  const mentioned = message.shared_interests_mentioned.length > 0 ? JSON.stringify(message.shared_interests_mentioned) : '';
  return ['s', String(message.sender_id), 'b', message.body, 'i', mentioned];
}

/** A thread entry's id: the message id, then the time it was created (ms). */
export const entryId = (messageId: number, createdMs: number): string => `${messageId}-${createdMs}`;

/** The message id of a thread entry's id. */
export const messageIdOfEntry = (id: string): number => Number(id.slice(0, id.indexOf('-')));

/** A message from its thread entry. */
export function messageFromEntry(matchId: number, [id, fields]: ThreadEntry): Message {
  const named = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) named.set(fields[i]!, fields[i + 1]!);
  const mentioned = named.get('i');
  return {
    id: messageIdOfEntry(id),
    match_id: matchId,
    sender_id: Number(named.get('s')),
    body: named.get('b') ?? '',
    created_at: new Date(Number(id.slice(id.indexOf('-') + 1))).toISOString(),
    shared_interests_mentioned: mentioned ? (JSON.parse(mentioned) as string[]) : [],
  };
}

/** The newest message of a thread read newest first (XREVRANGE … COUNT 1), or null when it is empty or gone. */
export const newestFromEntries = (matchId: number, entries: readonly ThreadEntry[]): Message | null =>
  entries[0] ? messageFromEntry(matchId, entries[0]) : null;
