import type { z } from 'zod';
import { errors, type FieldProblem } from './errors.js';

const UNCHANGEABLE = new Set(['email', 'password']);

/** Validates `input` against `schema`, throwing one `validation_failed` that lists every failing field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query' = 'body'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details: FieldProblem[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({
          field: key,
          message: UNCHANGEABLE.has(key) ? 'cannot be changed here' : `is not a known ${where === 'query' ? 'parameter' : 'field'}`,
        });
      }
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : where;
    const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    const message = missing ? 'is required' : issue.message;
    details.push({ field, message });
  }
  throw errors.validation(details, summarise(details));
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function summarise(details: FieldProblem[]): string {
  const shown = details.slice(0, 3).map((d) => `${d.field} ${d.message}`).join('; ');
  return `Invalid request: ${shown}${details.length > 3 ? `; and ${details.length - 3} more (see details)` : ''}.`;
}
