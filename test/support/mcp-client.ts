import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect } from 'vitest';
import { killChildren } from './child-process.js';

const repo = resolve(import.meta.dirname, '../..');
export const MCP_ENTRY = 'src/clients/mcp/main.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the fields they check
export type ToolResult = CallToolResult & { structuredContent?: any };

export type McpConnection = {
  client: Client;
  /** Everything the server wrote to stderr (its log and any complaint) so far. */
  stderr: () => string;
  close: () => Promise<void>;
};

/**
 * An MCP client with the server as a child process on stdio, started through its real entry point with
 * `env` (AGENT_MATCH_URL and the rest); its stderr is kept for the test to read.
 */
export async function connectMcp(env: Record<string, string>): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', MCP_ENTRY],
    cwd: repo,
    env: { LOG_LEVEL: 'warn', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'agent-match-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/**
 * Starts MCP servers against the service at `baseUrl()` (unless `env` names another AGENT_MATCH_URL); each
 * is closed after its test, and any child process the test spawned is killed.
 */
export function mcpServers(baseUrl: () => string): (env?: Record<string, string>) => Promise<McpConnection> {
  const open: McpConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    killChildren();
  });
  return async (env = {}) => {
    const connection = await connectMcp({ AGENT_MATCH_URL: baseUrl(), ...env });
    open.push(connection);
    return connection;
  };
}

/** As mcpServers, answering each server's MCP client (the server a child process on stdio, started through its real entry point). */
export function mcpClients(baseUrl: () => string): (env?: Record<string, string>) => Promise<Client> {
  const start = mcpServers(baseUrl);
  return async (env = {}) => (await start(env)).client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The API's answer, from a successful call (its text and structured content agree). */
export async function okTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const [content] = result.content;
  expect(JSON.parse(content?.type === 'text' ? content.text : 'null')).toEqual(result.structuredContent);
  return result.structuredContent;
}
