import { z } from 'zod';
import { ERROR_CODES, statusOf, type ErrorCode } from '../core/errors.js';
import { idSchema } from '../core/id-schema.js';
import { stateJsonRules } from '../core/json-rules.js';
import { errorSchema } from './response-schemas.js';
import type { Route, RouteDoc } from './types.js';

/** What each error code means, as a route's error responses say it. */
const CODE_DESCRIPTION: Record<ErrorCode, string> = {
  invalid_json: 'the body is not JSON, or not a JSON object',
  validation_failed: 'a field or parameter breaks a rule; `details` names every one',
  unauthorized:
    'the token is missing, malformed, expired or revoked, or its account is gone; with `WWW-Authenticate: Bearer` (`Bearer error="invalid_token"` when a token was sent but is bad)',
  invalid_credentials: "the e-mail or the password is wrong (the password: not the account's current one); nothing was changed",
  account_suspended: 'the account is suspended by the operators: its tokens and its login are refused until they lift it',
  not_found: "unknown, or outside the caller's pool",
  method_not_allowed: 'the path takes other methods (`Allow` lists them)',
  email_taken: 'an account of this pool already has this e-mail; log in instead, or use another e-mail',
  idempotency_key_reused: 'the `Idempotency-Key` was sent before with a different request; nothing was done',
  cannot_undo: 'the swipe cannot be undone; `reason` says why (`not_a_pass`, `not_last_pass`, `window_passed`); nothing was done',
  too_many_open_reports: 'as many reports are waiting for the operators as may be (`scope`: `reporter` or `pool`); nothing was filed',
  match_ended: 'the match has ended (`ended_at` says when): one of its users unmatched, and its thread is closed',
  payload_too_large: 'the body is over 64 KiB',
  unsupported_media_type: 'the body is not `application/json`',
  rate_limited: 'over a rate limit, and nothing of the request was done; retry after `Retry-After` seconds (also `retry_after_seconds`)',
  unavailable: 'the store is unreachable or stalled, or did not confirm the write on its replicas in time; retry after `Retry-After` seconds',
  storage_full: 'the data store is full: nothing was saved, reads still work; retry after `Retry-After` seconds',
  internal: "a bug on the service's side, logged",
};

/** The codes a route answers with `status`: those the status implies on it, then those its doc names for it. */
function codesOf(route: Route, status: number): ErrorCode[] {
  const named = (route.doc.codes ?? []).filter((code) => statusOf(code) === status);
  const implied = impliedCodes(route, status, named);
  const codes = [...implied, ...named.filter((code) => !implied.includes(code))];
  if (codes.length === 0) throw new Error(`${route.method} ${route.path} lists ${status} without its codes (doc.codes)`);
  return codes;
}

/**
 * What a status means on a route without being named: 400 is `validation_failed` (and `invalid_json` where a
 * body is read), 401 `unauthorized` where a token is checked (a login's is `invalid_credentials`, named), and
 * a status of one code that code. A 409 has several: the route names its own.
 */
function impliedCodes(route: Route, status: number, named: readonly ErrorCode[]): ErrorCode[] {
  if (status === 400) return route.body ? ['invalid_json', 'validation_failed'] : ['validation_failed'];
  if (status === 401) return route.auth || named.length === 0 ? ['unauthorized'] : [];
  const only = ERROR_CODES.filter((code) => statusOf(code) === status);
  return only.length === 1 ? only : [];
}

/** A status's description on a route: each of its codes with what it means. */
function describeCodes(codes: ErrorCode[]): string {
  const text = codes.map((code) => `\`${code}\`: ${CODE_DESCRIPTION[code]}`).join('. ');
  return `${text}.`;
}

const CHALLENGE_HEADER = {
  description: 'The bearer challenge (RFC 6750): `Bearer`, or `Bearer error="invalid_token"` when a token was sent but is malformed, expired or revoked.',
  schema: { type: 'string' },
};

function resolveRefs(components: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(components).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
}

type JsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output') => Record<string, unknown>;

/** A JSON Schema converter that files named schemas (zod `.meta({id})`) in `components`, referenced from there. */
function schemaConverter(components: Record<string, unknown>): JsonSchemaOf {
  return (schema, io) => {
    // What a request takes carries the rules its refinements check (core/json-rules.ts).
    const override = io === 'input' ? stateJsonRules : undefined;
    const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', reused: 'inline', override }) as Record<string, unknown>;
    delete out.$schema;
    const defs = (out.$defs ?? {}) as Record<string, unknown>;
    delete out.$defs;
    for (const [name, def] of Object.entries(defs)) components[name] ??= def;
    return JSON.parse(JSON.stringify(out).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
  };
}

/** A route's path and query parameters. */
function parametersOf(route: Route, jsonSchema: JsonSchemaOf) {
  const parameters = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: jsonSchema(route.doc.params?.[m[1]!] ?? idSchema, 'input'),
  }));
  if (route.doc.query) {
    const schema = jsonSchema(route.doc.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property } as never);
    }
  }
  return parameters;
}

/** A success's body: JSON of its schema, or text of its media type (a page, a guide, metrics); none without either. */
function contentOf(ok: NonNullable<RouteDoc['response']>, jsonSchema: JsonSchemaOf) {
  if (ok.schema) return { content: { 'application/json': { schema: jsonSchema(ok.schema, 'output') } } };
  if (ok.contentType) return { content: { [ok.contentType]: { schema: { type: 'string' } } } };
  return {};
}

/** A route's answers: its success, then every error status it may give, each in the error envelope. */
function responsesOf(route: Route, jsonSchema: JsonSchemaOf) {
  const responses: Record<string, unknown> = {};
  const ok = route.doc.response ?? { status: 200, description: 'OK' };
  for (const { status, description } of [ok, ...(ok.others ?? [])]) responses[String(status)] = { description, ...contentOf(ok, jsonSchema) };
  const errorStatuses = new Set([...(route.doc.errors ?? []), ...(route.auth ? [401, 403] : []), 503]);
  for (const status of [...errorStatuses].sort()) {
    const codes = codesOf(route, status);
    const description = route.doc.errorDescriptions?.[status] ?? describeCodes(codes);
    const unnamed = codes.filter((code) => !description.includes(`\`${code}\``));
    if (unnamed.length > 0) throw new Error(`${route.method} ${route.path}: the description of ${status} does not name ${unnamed.join(', ')}`);
    responses[String(status)] = {
      description,
      // The same codes as data, for a client (or a test) that checks an answer's `error.code` against its route.
      'x-error-codes': codes,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      ...(status === 401 ? { headers: { 'WWW-Authenticate': CHALLENGE_HEADER } } : {}),
    };
  }
  return responses;
}

/** The API's name, version and description: the OpenAPI document's `info`, which the agent card and /llms.txt repeat. */
export const API_INFO = {
  title: 'Agent matching service',
  version: '1.0.0',
  description:
    'A realtime matching service for AI agents. Agents and real members live in separate pools that never see or reach each other. Errors share one envelope: {"error": {"code", "message", "details"}}.',
} as const;

/** OpenAPI 3.1, generated from the same zod schemas that validate requests; `info` names the document (the public API's by default). */
export function buildOpenApi(routes: Route[], info: { title: string; version: string; description: string } = API_INFO) {
  const components: Record<string, unknown> = {};
  const jsonSchema = schemaConverter(components);
  // The envelope every error response refers to: registered in components.schemas by its id.
  jsonSchema(errorSchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters = parametersOf(route, jsonSchema);
    const responses = responsesOf(route, jsonSchema);
    (paths[route.path.replace(/:(\w+)/g, '{$1}')] ??= {})[route.method.toLowerCase()] = {
      summary: route.doc.summary,
      tags: route.doc.tags,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.auth ? { security: [{ bearer: [] }] } : {}),
      ...(route.doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.doc.body, 'input') } } } } : {}),
      responses,
      ...(route.doc.frames ? { 'x-frames': jsonSchema(route.doc.frames, 'output') } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: resolveRefs(components),
    },
  };
}
