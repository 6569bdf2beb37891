import { z } from 'zod';
import { AppError, errors, type FieldProblem } from '../../platform/core/errors.js';
import { idSchema } from '../../platform/core/id-schema.js';
import { notWhatWasSent } from '../../platform/core/issue-words.js';
import { validate } from '../../platform/core/validation.js';
import type { Endpoint } from '../../platform/http/types.js';
import { jsonSchemaOf, type JsonSchema } from './json-schemas.js';

/** A tool call's arguments as the route takes them: the path with its parameters filled in, the query as text, the body. */
export type RouteCall = { path: string; query?: Record<string, string>; body?: Record<string, unknown> };

/** What a tool takes, as its route does: the JSON Schema tools/list shows, and the check of a call's arguments. */
export type ToolInput = {
  schema: JsonSchema;
  /** The arguments as a route call; throws `validation_failed` naming every argument at fault. */
  read(args: Record<string, unknown>): RouteCall;
};

const ID_ARGUMENT = 'must be a positive integer id, given as a number such as 3';
const INTEGER_ARGUMENT = 'must be a whole number, given as a number such as 3';

type Part = { names: string[]; integers: Set<string>; properties: Record<string, JsonSchema>; schema: z.ZodType };

/** What a tool's input is made of: its route's path parameters (undefined: an id), query and body. */
type Parts = { endpoint: Endpoint; fixed: Record<string, unknown>; path: Map<string, z.ZodType | undefined>; query?: Part; body?: Part; known: string[] };

/**
 * The input of a tool calling `endpoint`: its path parameters, query parameters and body fields side by side,
 * checked by the schemas the route validates with. Arguments named in `fixed` are the tool's own (left out of
 * its input, sent as given; undefined: never sent). Two rules are stricter than the route's, since a tool's
 * arguments are JSON: an integer is a number, never its text; and an id is an integer.
 */
export function toolInput(endpoint: Endpoint, fixed: Record<string, unknown> = {}): ToolInput {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const definitions: Record<string, JsonSchema> = {};

  const path = new Map<string, z.ZodType | undefined>();
  for (const [, name] of endpoint.path.matchAll(/:(\w+)/g)) {
    const declared = endpoint.doc.params?.[name!];
    path.set(name!, declared);
    properties[name!] = declared
      ? jsonSchemaOf(declared, 'input')
      : { ...jsonSchemaOf(idSchema, 'input'), description: `The id of the ${name!.replace(/_id$/, '').replace(/_/g, ' ')}.` };
    required.push(name!);
  }

  const part = (schema: z.ZodType | undefined): Part | undefined => {
    if (!schema) return undefined;
    const json = jsonSchemaOf(schema, 'input');
    Object.assign(definitions, json.definitions);
    const names = Object.keys(json.properties ?? {}).filter((name) => !(name in fixed));
    for (const name of names) {
      if (name in properties) throw new Error(`${endpoint.method} ${endpoint.path}: ${name} is both a path or query parameter and a body field`);
      properties[name] = json.properties![name]!;
      if (json.required?.includes(name)) required.push(name);
    }
    return { names, integers: new Set(names.filter((name) => isInteger(properties[name]!))), properties: json.properties ?? {}, schema };
  };
  const parts: Parts = { endpoint, fixed, path, query: part(endpoint.doc.query), body: part(endpoint.doc.body), known: Object.keys(properties) };

  const schema: JsonSchema = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(definitions).length > 0 ? { definitions } : {}),
  };
  return { schema, read: (args) => readArguments(parts, args) };
}

function readArguments({ endpoint, fixed, path: pathParams, query, body, known }: Parts, args: Record<string, unknown>): RouteCall {
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  const notKnown = (field: string): FieldProblem => ({ field, message: `is not a known argument; this tool takes ${known.join(', ') || 'none'}` });
  // Where the route reads a body, an unknown argument is read as the route reads an unknown field (some have words of their own).
  const problems: FieldProblem[] = body ? [] : unknown.map(notKnown);
  let path = endpoint.path;
  for (const [name, declared] of pathParams) {
    const value = args[name];
    if (declared) problems.push(...problemsOf(z.object({ [name]: declared }), { [name]: value }));
    else if (!isId(value)) problems.push({ field: name, message: value === undefined ? 'is required' : ID_ARGUMENT });
    path = path.replace(`:${name}`, encodeURIComponent(typeof value === 'string' || typeof value === 'number' ? value : ''));
  }
  const call: RouteCall = { path };
  if (query) {
    const given = { ...pick(args, query.names), ...fixed };
    const wrongKinds = queryKinds(query, given);
    problems.push(...wrongKinds);
    call.query = asQueryText(given, new Set(wrongKinds.map((problem) => problem.field)));
    problems.push(...problemsOf(query.schema, call.query, problems));
  }
  if (body) {
    call.body = { ...pick(args, body.names), ...fixed };
    problems.push(...textIntegers(call.body, body.integers));
    const read = problemsOf(body.schema, { ...call.body, ...pick(args, unknown) }, problems);
    problems.push(
      ...read.map((problem) => (unknown.includes(problem.field) && problem.message.startsWith('is not a known argument') ? notKnown(problem.field) : problem)),
    );
  } else if (endpoint.body) call.body = {};
  problems.push(...unknown.filter((name) => !problems.some((problem) => problem.field === name)).map(notKnown));
  if (problems.length > 0) throw errors.validation(problems);
  return call;
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** Whether a property's JSON Schema is the integer (alone, or with null). */
function isInteger(property: JsonSchema): boolean {
  const type = property.type;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer') && !type.includes('string'));
}

function pick(args: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
}

/** An integer argument given as text is refused, in words that say so (the route would read the text). */
function textIntegers(given: Record<string, unknown>, integers: Set<string>): FieldProblem[] {
  return [...integers].filter((name) => typeof given[name] === 'string').map((field) => ({ field, message: INTEGER_ARGUMENT }));
}

/** Whether `value` is of the JSON kind a property's schema names (any kind, when it names none). */
function ofKind(property: JsonSchema, value: unknown): boolean {
  const anyOf = property.anyOf as JsonSchema[] | undefined;
  if (anyOf) return anyOf.some((branch) => ofKind(branch, value));
  const types = [property.type ?? []].flat() as string[];
  if (types.length === 0) return true;
  return types.some((type) => {
    if (type === 'integer') return Number.isInteger(value);
    if (type === 'array') return Array.isArray(value) && value.every((item) => ofKind((property.items ?? {}) as JsonSchema, item));
    if (type === 'null') return value === null;
    return typeof value === type;
  });
}

const KIND_WORDS: Record<string, string> = { string: 'text', number: 'a number', integer: 'a whole number', boolean: 'true or false', array: 'a list' };

/**
 * Query arguments of another JSON kind than their schema says (a query string would carry any of them as
 * text, and the route read that text): an integer given as text, null or an object where text is taken.
 * Each is refused in the route's words where its schema has them for the value as given, else in ours.
 */
function queryKinds(query: Part, given: Record<string, unknown>): FieldProblem[] {
  // A list parameter also takes one comma-separated string, as the query string carries it.
  const commaList = (property: JsonSchema, value: unknown) => typeof value === 'string' && [property.type].flat().includes('array');
  const wrong = Object.keys(given).filter((name) => {
    const property = query.properties[name];
    return given[name] !== undefined && property !== undefined && !ofKind(property, given[name]) && !commaList(property, given[name]);
  });
  if (wrong.length === 0) return [];
  const named = problemsOf(query.schema, given);
  return wrong.flatMap((field): FieldProblem[] => {
    const value = given[field];
    if (query.integers.has(field)) return [{ field, message: typeof value === 'string' ? INTEGER_ARGUMENT : `${INTEGER_ARGUMENT}, ${notWhatWasSent(value)}` }];
    const own = named.filter((problem) => problem.field === field || problem.field.startsWith(`${field}.`));
    if (own.length > 0) return own;
    const kinds = ([query.properties[field]!.type ?? []].flat() as string[]).map((type) => KIND_WORDS[type] ?? type);
    return [{ field, message: `must be ${kinds.join(' or ') || 'text'}, ${notWhatWasSent(value)}` }];
  });
}

/** Arguments as a query string carries them: text, a list as its items joined with commas. */
function asQueryText(given: Record<string, unknown>, refused: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (value !== undefined && !refused.has(name)) out[name] = Array.isArray(value) ? value.map((item) => textOf(item)).join(',') : textOf(value);
  }
  return out;
}

/** A value as a query string carries it (an object, which no query takes, as its JSON). */
const textOf = (value: unknown): string => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

/** The problems `schema` finds in `value`, but for fields already at fault. */
function problemsOf(schema: z.ZodType, value: unknown, found: readonly FieldProblem[] = []): FieldProblem[] {
  try {
    validate(schema, value, 'arguments');
    return [];
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'validation_failed') throw error;
    return (error.details ?? []).filter((problem) => !found.some((earlier) => earlier.field === problem.field));
  }
}
