import { request } from 'node:http';

/** `T` is the body the caller expects for a success status; other statuses carry the error envelope or text. */
export type DemoResponse<T = unknown> = { status: number; body: T; retryAfterSeconds?: number };

/**
 * A small JSON client over node:http that connects from a chosen loopback address (127.0.0.x), so each
 * simulated agent is its own client IP to the server and the real registration limit holds. Where the
 * system has only 127.0.0.1 (macOS), it falls back to the default address.
 */
export class DemoClient {
  constructor(
    private readonly baseUrl: string,
    private localAddress?: string,
  ) {}

  async send<T = unknown>(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<DemoResponse<T>> {
    try {
      return await this.once<T>(method, path, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRNOTAVAIL' || !this.localAddress) throw error;
      this.localAddress = undefined;
      return this.once<T>(method, path, options);
    }
  }

  private once<T>(method: string, path: string, { body, token }: { body?: unknown; token?: string }): Promise<DemoResponse<T>> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (token) headers.authorization = `Bearer ${token}`;
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.baseUrl), { method, headers, localAddress: this.localAddress }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON; keep the text
          }
          const retryAfter = Number(res.headers['retry-after']);
          resolve({ status: res.statusCode ?? 0, body: parsed as T, ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}) });
        });
      });
      req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
}
