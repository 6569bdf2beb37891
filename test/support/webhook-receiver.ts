import { afterEach } from 'vitest';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export type Received = {
  headers: Record<string, string>;
  body: string;
  frame: { id: string; type: string; at: string; data: Record<string, unknown> };
  receivedAt: number;
};

/** What the receiver answers to one request: a status (after `delayMs`), or nothing at all (`hang`). */
export type Answer = { status: number; delayMs?: number; body?: string; headers?: Record<string, string> } | { hang: true };

/**
 * A real HTTP server on a free loopback port that records every webhook delivery and answers as the test
 * says (`answer`, given the request and how many came before it; 200 by default).
 */
export async function startReceiver(answer: (received: Received, index: number) => Answer = () => ({ status: 200 })) {
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  let respond = answer;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let frame: Received['frame'];
      try {
        frame = JSON.parse(body) as Received['frame'];
      } catch {
        frame = { id: '', type: '', at: '', data: {} };
      }
      const entry: Received = { headers: req.headers as Record<string, string>, body, frame, receivedAt: Date.now() };
      const reply = respond(entry, received.length);
      received.push(entry);
      if ('hang' in reply) return void hanging.push(res);
      const send = () => res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.body ?? 'ok');
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** Received frames of event types other than the ping. */
    events: () => received.filter((r) => r.frame.type !== 'webhook.ping'),
    answerWith(next: typeof answer) {
      respond = next;
    },
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A receiver starter for a test file: each receiver it starts is stopped after the test that started it. */
export function receiversPerTest(): (answer?: Parameters<typeof startReceiver>[0]) => Promise<Receiver> {
  const started: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((r) => r.stop()));
  });
  return async (answer) => {
    const r = await startReceiver(answer);
    started.push(r);
    return r;
  };
}

/**
 * Verifies a delivery as the Standard Webhooks specification says, written from the specification (not
 * from the service's code): HMAC-SHA256 of `${id}.${timestamp}.${body}` with the base64 key after `whsec_`,
 * any of the space-separated `v1,<base64>` signatures matching, the timestamp within 5 minutes.
 */
export function verifyStandardWebhook(secret: string, received: Received, now = Date.now()): boolean {
  const id = received.headers['webhook-id'];
  const timestamp = received.headers['webhook-timestamp'];
  const signatures = received.headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest();
  return signatures.split(' ').some((signature) => {
    const [version, value] = signature.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
