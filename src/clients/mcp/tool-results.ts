import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { redactText, redactUrl } from './redaction.js';

/** The API's error envelope: `{"error": {code, message, details, ...}}` (docs/api.md, "Errors"). */
export type ErrorBody = { error: { code: string; message: string; details?: { field: string; message: string }[]; [key: string]: unknown } };

/** A tool call that failed: the HTTP status (0 when the service was not reached) and the API's error envelope. */
export class ToolFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.error.message);
  }
}

/** The failure for a service that could not be reached at all (no HTTP answer); the URL is shown without its credentials. */
export function unreachable(baseUrl: string, error: unknown): ToolFailure {
  const reason = redactText(error instanceof Error ? error.message : String(error), baseUrl);
  return new ToolFailure(0, {
    error: { code: 'unavailable', message: `Could not reach the Agent Match service at ${redactUrl(baseUrl)} (${reason}); check AGENT_MATCH_URL, or retry in a few seconds.`, details: [] },
  });
}

/** A successful call: the API's answer as JSON text, and as structured content when it is an object. */
export function toolSuccess(value: unknown): CallToolResult {
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  return { content: [{ type: 'text', text: value === undefined ? 'Done.' : JSON.stringify(value) }], ...(structured ? { structuredContent: structured } : {}) };
}

/** A failed call as an MCP tool error: the API's status, error code, message and details, as text and as structured content. */
export function toolFailure(failure: ToolFailure): CallToolResult {
  const structured = { status: failure.status, ...failure.body };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}
