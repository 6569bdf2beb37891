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
 * The effects the commit scripts write (lua/includes/outbox.lua, for lua/record_swipe-5.lua,
 * append_message-7.lua and end_match-7.lua), by type. Records written by earlier versions, their JSON
 * put together by hand, read the same.
 */
const KNOWN = {
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
  'match.listed': z.object({ type: z.literal('match.listed'), match_id: id, users, at: z.number() }),
  'match.touched': z.object({ type: z.literal('match.touched'), match_id: id, users, at: z.number() }),
  'match.unlisted': z.object({ type: z.literal('match.unlisted'), match_id: id, users }),
};

type Known = typeof KNOWN;
export type KnownEffect = { [T in keyof Known]: z.output<Known[T]> }[keyof Known];
/** An effect of a type the scripts do not write (one of another effect handler's): its handler reads it. */
export type OtherEffect = { type: string } & Record<string, unknown>;

const record = z.array(z.looseObject({ type: z.string() }));

const isKnown = (type: string): type is keyof Known => Object.hasOwn(KNOWN, type);

/** A record that can never be carried out as it is: not JSON, or not the effects its types say. */
export class MalformedRecordError extends Error {}

/** A pending record's effects; throws a MalformedRecordError when it is not JSON or an effect is not what its type says. */
export function parseOutboxRecord(text: string): Array<KnownEffect | OtherEffect> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MalformedRecordError(`the pending record is not JSON: ${(error as Error).message}`);
  }
  const effects = record.safeParse(json);
  if (!effects.success) throw new MalformedRecordError(`the pending record is no list of effects: ${z.prettifyError(effects.error)}`);
  return effects.data.map((effect, i) => {
    if (!isKnown(effect.type)) return effect;
    const parsed = KNOWN[effect.type].safeParse(effect);
    if (!parsed.success) throw new MalformedRecordError(`effect ${i} of the pending record (${effect.type}) is not valid: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  });
}
