import { z } from 'zod';

/**
 * What a refinement checks, in JSON Schema's own keywords: zod cannot read a `superRefine`, so a rule the
 * service counts its own way (lengths in code points after normalising, a password's kinds of character, a
 * real calendar date) would be missing from the JSON Schema of the request. The schema that checks the rule
 * states it here, next to the check, and every JSON Schema made of a request schema (the API document's, the
 * MCP tools') carries it: `minLength` and `maxLength` count code points, as JSON Schema does and as the
 * service counts characters; `pattern` is an ECMA-262 expression read with the `u` flag.
 */
export type JsonRules = {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: 'date' | 'email';
  minItems?: number;
  maxItems?: number;
  /** The rules of each item of a list. */
  items?: JsonRules;
};

const jsonRules = z.registry<JsonRules>();

/** `schema`, with the rules its refinements check stated for its JSON Schema. */
export function withJsonRules<S extends z.ZodType>(schema: S, rules: JsonRules): S {
  jsonRules.add(schema, rules);
  return schema;
}

function merge(target: Record<string, unknown>, rules: JsonRules): void {
  for (const [keyword, value] of Object.entries(rules)) {
    if (keyword === 'items' && typeof target.items === 'object' && target.items !== null) merge(target.items as Record<string, unknown>, value as JsonRules);
    else target[keyword] = value;
  }
}

/**
 * The `override` of `z.toJSONSchema` for what a request takes (`io: 'input'`): it writes each schema's stated
 * rules into its JSON Schema.
 */
export function stateJsonRules(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const rules = jsonRules.get(ctx.zodSchema as z.ZodType);
  if (rules) merge(ctx.jsonSchema, rules);
}
