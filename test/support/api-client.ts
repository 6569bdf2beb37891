import { Agent, request as httpRequest } from 'node:http';

/** A parsed JSON response body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the fields they expect, and checking them is what the tests are for
export type JsonBody = any;

export type ApiResponse<T = JsonBody> = { status: number; headers: Record<string, string | string[] | undefined>; body: T; text: string };

export type RequestOptions = {
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  raw?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
  /** Loopback address to connect from (the server sees it as the client IP). */
  ip?: string;
};

let ipCounter = Math.floor(Math.random() * 50_000);
/** A fresh loopback source address each call (127.x.y.z, never 127.0.0.1). */
export function nextLoopbackIp(): string {
  ipCounter = (ipCounter + 1) % 16_000_000;
  const n = ipCounter + 256;
  return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`;
}

/** A plain HTTP/1.1 client over real sockets, keep-alive, with a choosable source address. */
export class ApiClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  constructor(readonly baseUrl: string) {}

  request<T = JsonBody>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = { ...options.headers };
    let payload: string | Buffer | undefined = options.raw;
    if (payload === undefined && options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        { method, headers, agent: options.ip ? undefined : this.agent, localAddress: options.ip },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: JsonBody = text;
            if (String(res.headers['content-type'] ?? '').includes('json') && text) body = JSON.parse(text);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  get = <T = JsonBody>(path: string, options?: RequestOptions) => this.request<T>('GET', path, options);
  post = <T = JsonBody>(path: string, options?: RequestOptions) => this.request<T>('POST', path, options);
  patch = <T = JsonBody>(path: string, options?: RequestOptions) => this.request<T>('PATCH', path, options);
  delete = <T = JsonBody>(path: string, options?: RequestOptions) => this.request<T>('DELETE', path, options);

  close() {
    this.agent.destroy();
  }
}
