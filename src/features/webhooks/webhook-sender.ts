import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { guardedLookup, refusedBeforeConnecting, type DestinationPolicy, type HostResolver } from './webhook-destinations.js';
import type { SendResult, WebhookTransport } from './webhook-scheduling.js';
import { webhookHeaders } from './webhook-signature.js';
import { deliveryError } from './delivery-errors.js';

export type SenderOptions = {
  /** Connect, send and answer within this (ms): a slow receiver cannot hold a worker. */
  timeoutMs: number;
  /** Bytes of the answer read at most; the rest is cut off. */
  maxResponseBytes: number;
  destinations: DestinationPolicy;
  /** How host names are resolved (the system resolver unless given). */
  resolve?: HostResolver;
};

const USER_AGENT = 'AgentMatch-Webhooks/1';

/**
 * Sends signed webhook deliveries: one POST, no redirect followed (a 3xx is a failure), the destination's
 * port and resolved address checked on every new connection, a total deadline and a cap on the answer read.
 */
export class WebhookSender implements WebhookTransport {
  private readonly agents: { http: HttpAgent; https: HttpsAgent };

  constructor(private readonly options: SenderOptions) {
    const lookup = guardedLookup(options.destinations, options.resolve);
    this.agents = {
      http: new HttpAgent({ keepAlive: true, maxSockets: 64, lookup }),
      https: new HttpsAgent({ keepAlive: true, maxSockets: 64, lookup }),
    };
  }

  send(target: string, secrets: readonly string[], messageId: string, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(target);
    const refused = refusedBeforeConnecting(url, this.options.destinations);
    if (refused) return Promise.resolve({ error: refused, latencyMs: 0 });
    const secure = url.protocol === 'https:';
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ ...result, latencyMs: elapsed() });
      };
      const req = (secure ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        agent: secure ? this.agents.https : this.agents.http,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': USER_AGENT,
          ...webhookHeaders(secrets, messageId, body),
        },
      });
      const deadline = setTimeout(() => {
        finish({ error: `timeout after ${this.options.timeoutMs} ms` });
        req.destroy();
      }, this.options.timeoutMs);
      req.on('error', (error: Error) => finish({ error: deliveryError(error) }));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > this.options.maxResponseBytes) {
            finish({ status });
            res.destroy();
          }
        });
        res.on('end', () => finish({ status }));
        res.on('error', () => finish({ status }));
      });
      req.end(body);
    });
  }

  close() {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
