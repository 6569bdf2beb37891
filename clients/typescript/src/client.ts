import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';

/** A typed client of every route: `client.GET('/api/v1/matches')`, `client.POST('/api/v1/likes/{user_id}', …)`. */
export type AgentMatchClient = Client<paths>;

export type ClientOptions = {
  /** The service's base URL, such as `http://127.0.0.1:8080` (the paths start with `/api/v1`). */
  baseUrl: string;
  /** The bearer token of the account to act as; without one, only registration, login and public reads work. */
  token?: string;
  /** A fetch of your own (a proxy's, a recording one); the global fetch otherwise. */
  fetch?: (request: Request) => Promise<Response>;
};

export function createAgentMatchClient({ baseUrl, token, fetch }: ClientOptions): AgentMatchClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    ...(fetch ? { fetch } : {}),
  });
}
