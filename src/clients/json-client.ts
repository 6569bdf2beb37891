import * as http from 'node:http';
import * as https from 'node:https';

/** A parsed JSON body: whatever the server sent, until a caller names its type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the client cannot know a body's shape; callers that rely on one pass it as T
export type JsonBody = any;

export type JsonResponse<T = JsonBody> = { status: number; headers: Record<string, string | string[] | undefined>; body: T; text: string };

export type JsonRequestOptions = {
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  raw?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
  /** Source address of this one request, on a connection of its own (the server sees it as the client IP). */
  localAddress?: string;
  timeoutMs?: number;
};

export type JsonClientOptions = {
  /** Source address of every request of this client (its keep-alive connections bind to it). */
  localAddress?: string;
  maxSockets?: number;
  timeoutMs?: number;
};

/** How long an idle keep-alive connection is kept: half the server's idle timeout. */
const IDLE_CONNECTION_MS = 5_000;

/**
 * A small HTTP/1.1 JSON client over keep-alive connections: status, headers, the raw text and the body
 * (parsed when the response says it is JSON), over http: or https: as `baseUrl` says. Used by the demo, the bench,
 * the MCP server and the tests.
 */
export class JsonClient {
  private readonly agent: http.Agent;
  private readonly send: typeof http.request;
  private readonly localAddress: string | undefined;
  private readonly timeoutMs: number;

  constructor(
    readonly baseUrl: string,
    options: JsonClientOptions = {},
  ) {
    const secure = new URL(baseUrl).protocol === 'https:';
    const Agent = secure ? https.Agent : http.Agent;
    // An idle connection is dropped by this client before the server's idle timeout (uWS: 10 s) can close it:
    // a request written onto a connection the server is closing at that instant fails with "socket hang up".
    this.agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64, timeout: IDLE_CONNECTION_MS });
    this.send = secure ? https.request : http.request;
    this.localAddress = options.localAddress;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  request<T = JsonBody>(method: string, path: string, options: JsonRequestOptions = {}): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let payload = options.raw;
    if (payload === undefined && options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (payload !== undefined || method !== 'GET') headers['content-length'] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const oneOff = options.localAddress !== undefined;
    return new Promise((resolve, reject) => {
      const req = this.send(
        new URL(path, this.baseUrl),
        {
          method,
          headers,
          agent: oneOff ? false : this.agent,
          localAddress: options.localAddress ?? this.localAddress,
          timeout: options.timeoutMs ?? this.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parseBody(text, res.headers['content-type']) as T, text });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  get = <T = JsonBody>(path: string, options?: JsonRequestOptions) => this.request<T>('GET', path, options);
  post = <T = JsonBody>(path: string, options?: JsonRequestOptions) => this.request<T>('POST', path, options);
  patch = <T = JsonBody>(path: string, options?: JsonRequestOptions) => this.request<T>('PATCH', path, options);
  delete = <T = JsonBody>(path: string, options?: JsonRequestOptions) => this.request<T>('DELETE', path, options);

  close() {
    this.agent.destroy();
  }
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text || !String(contentType ?? '').includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
