import { z } from 'zod';

/** What the MCP server is told by its environment (the `env` of an MCP client's server entry). */
export type McpConfig = {
  /** The service's base URL (AGENT_MATCH_URL), such as https://agent-match.example.com. */
  baseUrl: string;
  /** A bearer token to start with (AGENT_MATCH_TOKEN); without one, the register or login tool gets one. */
  token?: string;
  /** pino level of the log the server writes to stderr (stdout carries the MCP messages). */
  logLevel: string;
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The variables; a refusal names the variable and the rule, never the value (AGENT_MATCH_URL may carry credentials). */
const schema = z.object({
  AGENT_MATCH_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) base URL of the Agent Match service, such as http://localhost:8080' })
    .transform((url) => url.replace(/\/+$/, '')),
  AGENT_MATCH_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((token) => token || undefined),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
});

/** Reads the configuration; throws one Error naming every variable at fault. */
export function loadMcpConfig(env: Record<string, string | undefined>): McpConfig {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')} ${!env[String(issue.path[0])] ? 'is required' : issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}.`);
  }
  const { AGENT_MATCH_URL, AGENT_MATCH_TOKEN, LOG_LEVEL } = result.data;
  return { baseUrl: AGENT_MATCH_URL, token: AGENT_MATCH_TOKEN, logLevel: LOG_LEVEL };
}
