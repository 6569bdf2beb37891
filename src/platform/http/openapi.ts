import { z } from 'zod';
import { idSchema } from '../core/id-schema.js';
import { errorSchema } from './response-schemas.js';
import type { Route } from './types.js';

const STATUS_DESCRIPTION: Record<number, string> = {
  400: 'Invalid JSON, or a field or parameter breaks a rule (`invalid_json`, `validation_failed`).',
  401: 'Missing, invalid, expired or revoked token (`unauthorized`), or wrong credentials; with `WWW-Authenticate: Bearer` (`Bearer error="invalid_token"` when a token was sent but is bad).',
  403: 'The account is suspended by the operators (`account_suspended`): its token and its login are refused until lifted.',
  404: 'Unknown, or outside the caller\'s pool (`not_found`).',
  409: 'E-mail already registered in this pool (`email_taken`), an Idempotency-Key sent again with a different request (`idempotency_key_reused`), or a swipe that cannot be undone (`cannot_undo`, with its `reason`).',
  410: 'The match has ended (`match_ended`; `ended_at` in the error): one of its users unmatched, and its thread is closed.',
  413: 'Body over 64 KiB (`payload_too_large`).',
  415: 'Body is not `application/json` (`unsupported_media_type`).',
  429: 'Over a rate limit (`rate_limited`); see `Retry-After`.',
  507: 'The data store is full (`storage_full`): nothing was saved; reads still work. Retry after `Retry-After` seconds.',
};

const CHALLENGE_HEADER = {
  description: 'The bearer challenge (RFC 6750): `Bearer`, or `Bearer error="invalid_token"` when a token was sent but is malformed, expired or revoked.',
  schema: { type: 'string' },
};

const UNAVAILABLE = 'The store is unreachable or stalled (`unavailable`); retry after `Retry-After` seconds.';

function resolveRefs(components: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(components).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
}

type JsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output') => Record<string, unknown>;

/** A JSON Schema converter that files named schemas (zod `.meta({id})`) in `components`, referenced from there. */
function schemaConverter(components: Record<string, unknown>): JsonSchemaOf {
  return (schema, io) => {
    const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', reused: 'inline' }) as Record<string, unknown>;
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
    schema: jsonSchema(idSchema, 'input'),
  }));
  if (route.doc.query) {
    const schema = jsonSchema(route.doc.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property } as never);
    }
  }
  return parameters;
}

/** A route's answers: its success, then every error status it may give, each in the error envelope. */
function responsesOf(route: Route, jsonSchema: JsonSchemaOf) {
  const responses: Record<string, unknown> = {};
  const ok = route.doc.response ?? { status: 200, description: 'OK' };
  responses[String(ok.status)] = {
    description: ok.description,
    ...(ok.schema ? { content: { 'application/json': { schema: jsonSchema(ok.schema, 'output') } } } : {}),
  };
  const errorStatuses = new Set([...(route.doc.errors ?? []), ...(route.auth ? [401, 403] : []), 503]);
  for (const status of [...errorStatuses].sort()) {
    responses[String(status)] = {
      description: route.doc.errorDescriptions?.[status] ?? STATUS_DESCRIPTION[status] ?? UNAVAILABLE,
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
      ...(route.doc.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.doc.body, 'input') } } } }
        : {}),
      responses,
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
