import { Agent, request } from 'node:http';

/** A parsed JSON response body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each scenario reads the fields it expects from the service's answer
export type JsonBody = any;

export type JsonResponse<T = JsonBody> = { status: number; body: T; text: string; headers: Record<string, string | string[] | undefined> };

export type JsonRequestOptions = { body?: unknown; token?: string; localAddress?: string; headers?: Record<string, string>; timeoutMs?: number };

/** A small keep-alive JSON client for the bench's own set-up steps and single timed calls. */
export class JsonClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });

  constructor(readonly baseUrl: string) {}

  request<T = JsonBody>(method: string, path: string, options: JsonRequestOptions = {}): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    if (payload !== undefined || method !== 'GET') headers['content-length'] = String(payload ? Buffer.byteLength(payload) : 0);
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, this.baseUrl),
        { method, headers, agent: options.localAddress ? false : this.agent, localAddress: options.localAddress, timeout: options.timeoutMs ?? 30_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: JsonBody = text;
            if (String(res.headers['content-type'] ?? '').includes('json') && text) {
              try {
                body = JSON.parse(text);
              } catch {
                body = text;
              }
            }
            resolve({ status: res.statusCode ?? 0, body, text, headers: res.headers });
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

  close() {
    this.agent.destroy();
  }
}
