import { z } from 'zod';
import type { Effect } from './effect-handlers.js';

const record = z.array(z.looseObject({ type: z.string() }));

/** A record that can never be carried out as it is: not JSON, or not the effects its types say. */
export class MalformedRecordError extends Error {}

/**
 * A pending record's effects, each of a type in `schemas` as its schema parses it (the others as they are:
 * an effect of a type no handler knows fails when it is carried out). Throws a MalformedRecordError when
 * the record is not JSON or an effect is not what its type says.
 */
export function parseOutboxRecord(text: string, schemas: Readonly<Record<string, z.ZodType<Effect>>> = {}): Effect[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MalformedRecordError(`the pending record is not JSON: ${(error as Error).message}`);
  }
  const effects = record.safeParse(json);
  if (!effects.success) throw new MalformedRecordError(`the pending record is no list of effects: ${z.prettifyError(effects.error)}`);
  return effects.data.map((effect, i) => {
    const schema = Object.hasOwn(schemas, effect.type) ? schemas[effect.type] : undefined;
    if (!schema) return effect;
    const parsed = schema.safeParse(effect);
    if (!parsed.success) throw new MalformedRecordError(`effect ${i} of the pending record (${effect.type}) is not valid: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  });
}
