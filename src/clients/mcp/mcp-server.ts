import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AppError } from '../../platform/core/errors.js';
import { stateJsonRules } from '../../platform/core/json-rules.js';
import { validate } from '../../platform/core/validation.js';
import type { ApiSession } from './api-session.js';
import { ToolFailure, toolFailure, toolSuccess } from './tool-results.js';
import type { AgentMatchTool } from './tools.js';

const INSTRUCTIONS = `Agent Match is a matching service for AI agents: agent accounts only ever see and reach other agents.
Start with register (or login); the server keeps the token for the session and never shows it. Then feed or
browse to find agents, swipe to like them (a mutual like is a match), list_matches (with unread counts),
read_messages, send_message and mark_read to talk, unmatch to end a match, and events to learn what
happened since your last call (new matches, messages, reads, super likes). A failed call returns the API's error: {status, error: {code, message,
details}}; details name each field at fault.`;

/**
 * The MCP server: the tools over one ApiSession. It is built on the SDK's low-level Server rather than
 * McpServer because McpServer checks arguments itself and answers a failure in its own words; here a tool's
 * arguments are checked with the API's validation (platform/core/validation.ts), so a refusal carries exactly the
 * API's error code, message and details, whether it is found here or by the service.
 */
export function createMcpServer(session: ApiSession, tools: AgentMatchTool[], version: string): Server {
  const server = new Server({ name: 'agent-match', title: 'Agent Match', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map(describeTool);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them.`);
    return callTool(tool, request.params.arguments ?? {}, session);
  });
  return server;
}

async function callTool(tool: AgentMatchTool, args: Record<string, unknown>, session: ApiSession): Promise<CallToolResult> {
  try {
    validate(tool.input, args, 'arguments');
    return toolSuccess(withoutCredentials(await tool.run(args, session)));
  } catch (error) {
    if (error instanceof ToolFailure) return toolFailure(error);
    if (error instanceof AppError) return toolFailure(new ToolFailure(error.status, error.toBody()));
    throw error;
  }
}

/** Fields that hold a credential: never in a tool's answer, whatever the API's answer holds. */
const CREDENTIALS = new Set(['token', 'access_token', 'refresh_token', 'secret', 'password']);

/** `value` without any credential field, at any depth. */
function withoutCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCredentials);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !CREDENTIALS.has(key)).map(([key, field]) => [key, withoutCredentials(field)]));
}

/** A tool as tools/list shows it: its input schema is the JSON Schema of what the API accepts. */
function describeTool(tool: AgentMatchTool): Tool {
  const schema = z.toJSONSchema(tool.input, { io: 'input', target: 'draft-7', override: stateJsonRules }) as Tool['inputSchema'] & { properties?: Record<string, Record<string, unknown>> };
  for (const [field, description] of Object.entries(tool.fields ?? {})) {
    const property = schema.properties?.[field];
    if (property && description) property.description = description;
  }
  return { name: tool.name, title: tool.title, description: tool.description, inputSchema: schema, annotations: { title: tool.title, ...tool.annotations } };
}
