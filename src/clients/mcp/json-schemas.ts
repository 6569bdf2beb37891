import { z } from 'zod';
import { stateJsonRules } from '../../platform/core/json-rules.js';

/** A JSON Schema (draft-7, the one MCP clients read) as a plain object. */
export type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[]; definitions?: Record<string, JsonSchema> };

/**
 * The JSON Schema of what `schema` takes (`input`, with the rules its refinements check) or gives (`output`).
 * A named schema (zod `.meta({id})`) is referred to from `definitions`; the root is the object itself, not a
 * reference, since a tool's schemas must be objects at the top.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io,
    target: 'draft-7',
    unrepresentable: 'any',
    reused: 'inline',
    override: io === 'input' ? stateJsonRules : undefined,
  }) as JsonSchema;
  delete out.$schema;
  const root = typeof out.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(out.$ref)?.[1] : undefined;
  if (root === undefined || !out.definitions?.[root]) return out;
  const { [root]: self, ...others } = out.definitions;
  return { ...self, ...(Object.keys(others).length > 0 ? { definitions: others } : {}) };
}
