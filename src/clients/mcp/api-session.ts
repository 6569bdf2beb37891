import type { Method } from '../../platform/http/types.js';
import { JsonClient } from '../json-client.js';
import { ToolFailure, unreachable, type ErrorBody } from './tool-results.js';

export type ApiCall = {
  /** JSON body, sent as given. */
  body?: unknown;
  /** Query parameters, as validated: undefined values are left out, a list is the parameter repeated. */
  query?: Record<string, unknown>;
};

/**
 * One MCP session's link to the service: the base URL, the JSON client, and the bearer token the session
 * acts with (from AGENT_MATCH_TOKEN, or the last successful register or login). Calls answer the API's body,
 * or throw a ToolFailure carrying the API's status and error envelope.
 */
export class ApiSession {
  private readonly client: JsonClient;
  private currentToken: string | undefined;

  constructor(
    readonly baseUrl: string,
    token?: string,
  ) {
    this.client = new JsonClient(baseUrl, { maxSockets: 8 });
    this.currentToken = token;
  }

  get token(): string | undefined {
    return this.currentToken;
  }

  /** Acts as another account from now on. */
  useToken(token: string) {
    this.currentToken = token;
  }

  /** Acts as no account from now on (the token was revoked): the next call that needs one asks for register or login. */
  forgetToken() {
    this.currentToken = undefined;
  }

  async call<T = unknown>(method: Method, path: string, { body, query }: ApiCall = {}): Promise<T> {
    const url = query ? `${path}${queryString(query)}` : path;
    let res;
    try {
      res = await this.client.request<T>(method, url, { body, token: this.currentToken });
    } catch (error) {
      throw unreachable(this.baseUrl, error);
    }
    if (res.status >= 200 && res.status < 300) return res.status === 204 ? (undefined as T) : res.body;
    throw new ToolFailure(res.status, isErrorBody(res.body) ? res.body : unexpected(res.status, res.text));
  }

  close() {
    this.client.close();
  }
}

function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as ErrorBody | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
}

/** An answer without the API's envelope (a proxy's error page, say). */
function unexpected(status: number, text: string): ErrorBody {
  const code = status === 502 || status === 503 || status === 504 ? 'unavailable' : 'unexpected_response';
  return {
    error: {
      code,
      message: `The service answered HTTP ${status} without an error body (${text.slice(0, 200) || 'empty'}); retry, or check AGENT_MATCH_URL.`,
      details: [],
    },
  };
}
