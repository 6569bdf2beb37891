import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Endpoint } from '../../platform/http/types.js';
import type { ApiSession } from './api-session.js';
import { schemaWithoutCredentials } from './credentials.js';
import { jsonSchemaOf, type JsonSchema } from './json-schemas.js';
import { toolInput, type RouteCall, type ToolInput } from './tool-input.js';
import { refusalSchema } from './tool-results.js';

/** A tool of the MCP server: one route of the API, described by the route's own declaration. */
export type AgentMatchTool = {
  name: string;
  title: string;
  /** The route's summary, then what the tool does otherwise, if anything. */
  description: string;
  endpoint: Endpoint;
  input: ToolInput;
  /** The JSON Schema of the answer (the route's answer without credentials, or a refusal), when the route answers a body. */
  outputSchema?: JsonSchema;
  annotations: ToolAnnotations;
  run(call: RouteCall, session: ApiSession): Promise<unknown>;
};

export type RouteToolDefinition = {
  name: string;
  title: string;
  endpoint: Endpoint;
  /** What the tool does that the route's summary does not say (how the session's token is held, say). */
  note?: string;
  /** Arguments the tool sets itself, out of its input (undefined: never sent). */
  fixed?: Record<string, unknown>;
  /** A second call with the same arguments gives the same answer and has no further effect. */
  idempotent?: boolean;
  /** Ends something the caller cannot get back (by default: what a DELETE does). */
  destructive?: boolean;
  /** The tool's own answer, where it is not the route's; `output` is then its schema. */
  answer?: (call: RouteCall, session: ApiSession) => Promise<unknown>;
  output?: z.ZodType;
};

/**
 * The tool calling `definition.endpoint`: its description is the route's summary, its input the route's path
 * parameters, query and body, its output the route's answer, and its hints what the method and the
 * definition say. By default it calls the route and answers what the route answers.
 */
export function routeTool(definition: RouteToolDefinition): AgentMatchTool {
  const { endpoint } = definition;
  const readOnly = endpoint.method === 'GET';
  const answerSchema = definition.answer ? definition.output : endpoint.doc.response?.schema;
  return {
    name: definition.name,
    title: definition.title,
    description: definition.note ? `${endpoint.doc.summary} ${definition.note}` : endpoint.doc.summary,
    endpoint,
    input: toolInput(endpoint, definition.fixed),
    ...(answerSchema ? { outputSchema: answerOrRefusal(answerSchema) } : {}),
    annotations: readOnly
      ? { title: definition.title, readOnlyHint: true, openWorldHint: true }
      : {
          title: definition.title,
          readOnlyHint: false,
          idempotentHint: definition.idempotent ?? false,
          destructiveHint: definition.destructive ?? endpoint.method === 'DELETE',
          openWorldHint: true,
        },
    run: definition.answer ?? ((call, session) => session.call(endpoint.method, call.path, { query: call.query, body: call.body })),
  };
}

/**
 * A tool's output schema: its answer, or the refusal a failed call carries as structured content (an MCP
 * client may check either against it). Named schemas of both are referred to from the root's definitions.
 */
function answerOrRefusal(answer: z.ZodType): JsonSchema {
  const branches = [schemaWithoutCredentials(jsonSchemaOf(answer, 'output')) as JsonSchema, jsonSchemaOf(refusalSchema, 'output')];
  const definitions = Object.assign({}, ...branches.map((branch) => branch.definitions)) as Record<string, JsonSchema>;
  const anyOf = branches.map(({ definitions: _, ...branch }) => branch);
  return { type: 'object', anyOf, ...(Object.keys(definitions).length > 0 ? { definitions } : {}) };
}
