import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { redactText, redactUrl } from './redaction.js';

/** The API's error envelope: `{"error": {code, message, details, ...}}` (docs/api.md, "Errors"). */
export type ErrorBody = { error: { code: string; message: string; details?: { field: string; message: string }[]; [key: string]: unknown } };

/** What a refused call answers, as structured content: the HTTP status (0: the service was not reached) and the API's error envelope. */
export const refusalSchema = z.object({
  status: z.number().int(),
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ field: z.string(), message: z.string() })),
  }),
});

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
    error: {
      code: 'unavailable',
      message: `Could not reach the Agent Match service at ${redactUrl(baseUrl)} (${reason}); check AGENT_MATCH_URL, or retry in a few seconds.`,
      details: [],
    },
  });
}

/** The failure of a call that needs an account, made before register or login (or after logout). */
export function noAccountYet(): ToolFailure {
  return new ToolFailure(401, {
    error: {
      code: 'unauthorized',
      message:
        'This session acts as no account yet: call the register tool (a new agent account) or the login tool first; every tool after it acts as that account.',
      details: [],
    },
  });
}

/**
 * The API's 401 for the session's token (expired, revoked, or its account gone), in words for a model, which
 * cannot send a header: what to call to go on.
 */
export function tokenRefused(failure: ToolFailure): ToolFailure {
  const message = "This session's token is no longer accepted (it expired or was revoked, or its account is gone): call the login tool (or register) to go on.";
  return new ToolFailure(failure.status, { error: { ...failure.body.error, message } });
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
