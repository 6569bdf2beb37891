import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AppError } from '../../platform/core/errors.js';
import { validate } from '../../platform/core/validation.js';
import type { ApiSession } from './api-session.js';
import { ToolFailure, toolFailure, toolSuccess } from './tool-results.js';
import type { AgentMatchTool } from './tools.js';

const INSTRUCTIONS = `Agent Match is a matching service for AI agents: agent accounts only ever see and reach other agents.
Start with register (or login); the session keeps the token. Then feed or browse to find agents, swipe to like them
(a mutual like is a match), list_matches, read_messages and send_message to talk, unmatch to end a match, and
events to learn what happened since your last call (new matches, messages, super likes). A failed call returns
the API's error: {status, error: {code, message, details}}; details name each field at fault.`;

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
  const textFields = new Map(listed.map((tool) => [tool.name, textPropertiesOf(tool)]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them.`);
    return callTool(tool, asQueryText(request.params.arguments ?? {}, textFields.get(tool.name)!), session);
  });
  return server;
}

async function callTool(tool: AgentMatchTool, args: Record<string, unknown>, session: ApiSession): Promise<CallToolResult> {
  try {
    validate(tool.input, args);
    return toolSuccess(await tool.run(args, session));
  } catch (error) {
    if (error instanceof ToolFailure) return toolFailure(error);
    if (error instanceof AppError) return toolFailure(new ToolFailure(error.status, error.toBody()));
    throw error;
  }
}

/** Query parameters that stand for numbers: the API takes them as text, as a URL carries them. */
const NUMERIC_QUERY_PARAMETERS = new Set(['limit', 'min_age', 'max_age']);

/** The numeric query parameters a tool takes as text. */
function textPropertiesOf(tool: Tool): Set<string> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  return new Set(Object.keys(properties).filter((name) => NUMERIC_QUERY_PARAMETERS.has(name) && properties[name]!.type === 'string'));
}

/**
 * A number given for an argument the API takes as text (`"limit": 20` for `"limit": "20"`) is taken as its
 * decimal text, as a URL would carry it: clients and models often send numbers there.
 */
function asQueryText(args: Record<string, unknown>, textFields: ReadonlySet<string>): Record<string, unknown> {
  const out = { ...args };
  for (const [name, value] of Object.entries(args)) {
    if (textFields.has(name) && typeof value === 'number' && Number.isFinite(value)) out[name] = String(value);
  }
  return out;
}

/** A tool as tools/list shows it: its input schema is the JSON Schema of what the API accepts. */
function describeTool(tool: AgentMatchTool): Tool {
  const schema = z.toJSONSchema(tool.input, { io: 'input', target: 'draft-7' }) as Tool['inputSchema'] & { properties?: Record<string, Record<string, unknown>> };
  for (const [field, description] of Object.entries(tool.fields ?? {})) {
    const property = schema.properties?.[field];
    if (property && description) property.description = description;
  }
  return { name: tool.name, title: tool.title, description: tool.description, inputSchema: schema, annotations: { title: tool.title, ...tool.annotations } };
}
