import { z } from 'zod';

const id = z.number().int().nonnegative();
const users = z.tuple([id, id]);

/** A message held whole by a `message.created` effect, as records written before events referred to messages by id held it. */
const heldMessage = z.object({
  id,
  match_id: id,
  sender_id: id,
  body: z.string(),
  created_at: z.string(),
  shared_interests_mentioned: z.array(z.string()).default([]),
});

/**
 * The event effects the commit scripts write (lua/includes/outbox.lua, for lua/record_swipe-5.lua,
 * append_message-7.lua, end_match-7.lua and mark_read-5.lua), by type. Records written by earlier
 * versions, their JSON put together by hand, read the same.
 */
export const EVENT_EFFECTS = {
  'like.received': z.object({ type: z.literal('like.received'), from: id, to: id, created_at: z.string() }),
  'match.created': z.object({
    type: z.literal('match.created'),
    // cjson writes an empty Lua table as {}, so the scripts leave an empty list out
    match: z.object({ id, users, created_at: z.string(), shared_interests: z.array(z.string()).default([]) }),
  }),
  'message.created': z
    .object({ type: z.literal('message.created'), match_id: id, users, message_id: id.optional(), message: heldMessage.optional() })
    .refine((effect) => effect.message_id !== undefined || effect.message !== undefined, 'a message.created effect names its message'),
  'message.read': z.object({ type: z.literal('message.read'), match_id: id, recipient: id, reader_id: id, message_id: id, read_at: z.string() }),
  'match.ended': z.object({ type: z.literal('match.ended'), match_id: id, users, ended_at: z.string() }),
};
