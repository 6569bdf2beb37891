#!/usr/bin/env node
/**
 * The Agent Match MCP server on stdio: `npm run -s mcp`, or `node dist/clients/mcp/main.js` once built (the package's
 * `agent-match-mcp` bin). Configured by AGENT_MATCH_URL and, optionally, AGENT_MATCH_TOKEN. Stdout carries the
 * MCP messages only; the log goes to stderr.
 */
import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLogger } from '../../platform/logger.js';
import { ApiSession } from './api-session.js';
import { loadMcpConfig, type McpConfig } from './mcp-config.js';
import { createMcpServer } from './mcp-server.js';
import { redactUrl } from './redaction.js';
import { agentMatchTools } from './tools.js';

let config: McpConfig;
try {
  config = loadMcpConfig(process.env);
} catch (error) {
  process.stderr.write(`agent-match MCP server: ${(error as Error).message}\n`);
  process.exit(2);
}

const logger = createLogger(config.logLevel, 2);
const session = new ApiSession(config.baseUrl, config.token);
const server = createMcpServer(session, agentMatchTools, packageVersion());

let stopping = false;
async function stop(reason: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ reason }, 'MCP server stopping');
  await server.close().catch(() => undefined);
  session.close();
  process.exit(0);
}

server.onclose = () => void stop('transport closed');
process.stdin.once('end', () => void stop('stdin ended'));
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));

await server.connect(new StdioServerTransport());
logger.info({ url: redactUrl(config.baseUrl), token: config.token ? 'given' : 'none' }, 'MCP server ready on stdio');

/** The package's version, from package.json three levels up (the same from src/clients/mcp and dist/clients/mcp). */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
