import type { z } from 'zod';
import { errors, type FieldProblem } from './errors.js';
import { inOurWords, notWhatWasSent } from './issue-words.js';

/** Fields a profile update does not change: sent to one, they are named with what to do instead. */
const UNCHANGEABLE: Record<string, string> = {
  email: 'cannot be changed: an account keeps the e-mail it registered with (register a new account for another)',
  password: 'is not changed here: change it with POST /api/v1/auth/password {"current_password", "new_password"}',
};

/**
 * Where a missing query parameter goes, for a client that sent it elsewhere (such as in a JSON body), with
 * the values it takes when they are few.
 */
function queryHint(field: string, issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_value') return `is required as a query parameter: add ?${field}=… to the URL (not the JSON body)`;
  const values = issue.values.map(String);
  return `is required as a query parameter, one of ${values.join(', ')}: add ?${field}=${values[0]} to the URL (not the JSON body)`;
}

/**
 * A refusal of a value of the wrong kind says what was sent, when its own words do not: "must be an integer
 * from 1 to 6, not a string". Query values are always text, so they are left as they are.
 */
function withWhatWasSent(message: string, issue: z.core.$ZodIssue, sent: unknown, where: InputSource): string {
  if (where === 'query' || message.includes(', not ')) return message;
  const wrongKind =
    issue.code === 'invalid_type' ||
    (issue.code === 'invalid_value' && typeof sent !== 'string') ||
    // one of several forms (text, or a list of text): a value of neither kind
    (issue.code === 'invalid_union' && typeof sent !== 'string' && !Array.isArray(sent));
  return wrongKind ? `${message}, ${notWhatWasSent(sent)}` : message;
}

/** Where the input came from: a JSON body, a query string, or the arguments of a tool call (the MCP server's). */
export type InputSource = 'body' | 'query' | 'arguments';

/** An unknown key, named with those `where` takes (so a misspelt or misplaced one is easy to correct). */
function unknownKey(where: InputSource, known: readonly string[]): string {
  const list = known.length === 0 ? 'none' : known.join(', ');
  if (where === 'query') return `is not a known parameter; this route takes ${list}`;
  if (where === 'arguments') return `is not a known argument; this tool takes ${list}`;
  return `is not a known field; the body takes ${list}`;
}

/** The keys an object schema takes, through the wrappers around it (a pipe, optional, a default). */
function knownKeys(schema: z.core.$ZodType): string[] {
  const def = schema._zod.def as { type: string; shape?: Record<string, unknown>; in?: z.core.$ZodType; innerType?: z.core.$ZodType };
  if (def.type === 'object' && def.shape) return Object.keys(def.shape);
  const inner = def.type === 'pipe' ? def.in : def.innerType;
  return inner ? knownKeys(inner) : [];
}

/** A missing argument that takes one of a few values is told them. */
const requiredArgument = (issue: z.core.$ZodIssue) =>
  issue.code === 'invalid_value' ? `is required: one of ${issue.values.map(String).join(', ')}` : 'is required';

/**
 * Validates `input` against `schema`, throwing one `validation_failed` that lists every failing field. Every
 * message is the service's own (issue-words.ts words the rules that name none).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, where: InputSource = 'body'): z.output<S> {
  const result = schema.safeParse(input, { error: inOurWords });
  if (result.success) return result.data;
  const details: FieldProblem[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({
          field: key,
          // Own keys only: `__proto__` (a key JSON may carry) would otherwise find Object.prototype.
          message: (where !== 'query' && Object.hasOwn(UNCHANGEABLE, key) && UNCHANGEABLE[key]) || unknownKey(where, knownKeys(schema)),
        });
      }
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : where;
    const sent = valueAt(input, issue.path);
    const missing = issue.path.length > 0 && sent === undefined;
    const message = !missing
      ? withWhatWasSent(issue.message, issue, sent, where)
      : where === 'query'
        ? queryHint(field, issue)
        : where === 'arguments'
          ? requiredArgument(issue)
          : 'is required';
    details.push({ field, message });
  }
  throw errors.validation(details);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
