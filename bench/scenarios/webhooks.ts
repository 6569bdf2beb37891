import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchAgent } from '../lib/population.js';
import { Recorder } from '../lib/recorder.js';
import { emptyResult, type Scenario } from '../lib/types.js';

const HOOKS = '/api/v1/webhooks';
const MAX_PAIRS = 16;
const DRAIN_TIMEOUT_MS = 60_000;

/**
 * Webhook deliveries: pairs of agents match, the second of each pair registers a webhook pointing at a
 * receiver in the bench's process, then the first sends messages as fast as it is answered for the phase's
 * duration. Measured at the receiver: deliveries per second, and latency from the message being sent (and
 * from the event's `at`, its commit) to the delivery arriving; plus the send latency with webhooks on.
 */
export const webhooksScenario: Scenario = {
  name: 'webhooks',
  title: 'Webhook deliveries: throughput and latency from event to receiver',
  summary: 'matched pairs chat while each recipient has a webhook: deliveries/s and event → receiver latency p50/p99',
  async run(ctx) {
    const result = emptyResult(this);
    if (!ctx.hasRoute('POST', HOOKS)) return { ...result, skipped: `POST ${HOOKS} is not served by the target` };
    const pairs = Math.max(1, Math.min(MAX_PAIRS, Math.floor(ctx.options.pairs / 2) || 1));
    const agents = await ctx.population.take(pairs * 2, 'webhooks');
    const recorder = new Recorder();
    const sentAt = new Map<string, number>();
    let delivered = 0;
    let duplicates = 0;
    const seen = new Set<string>();
    // Event ids are unique within an account's stream: a delivery is told apart by its webhook (path) and id.
    const receiver = await listen((path, id, body) => {
      const now = performance.now();
      const key = `${path} ${id}`;
      if (seen.has(key)) return void duplicates++;
      seen.add(key);
      delivered++;
      const frame = JSON.parse(body) as { type: string; at: string };
      recorder.record('delivery: event committed → receiver', 200, Math.max(0, Date.now() - Date.parse(frame.at)), now);
      const tag = /bench-wh-\d+-\d+/.exec(body)?.[0];
      const sent = tag ? sentAt.get(tag) : undefined;
      if (sent !== undefined) recorder.record('delivery: message sent → receiver', 200, now - sent, now);
    });
    try {
      const matches: Array<{ from: BenchAgent; matchId: number }> = [];
      for (let i = 0; i < pairs; i++) {
        const [from, to] = [agents[2 * i]!, agents[2 * i + 1]!];
        const hook = await ctx.api.post(HOOKS, { token: to.token, body: { url: `${receiver.url}/${i}`, event_types: ['message.created'] } });
        if (hook.status !== 201) {
          return { ...result, skipped: `the target refuses the bench's loopback webhook URL (${hook.status}); start it with WEBHOOK_ALLOW_PRIVATE=true` };
        }
        await ctx.api.post(`/api/v1/likes/${to.id}?kind=like`, { token: from.token });
        const match = await ctx.api.post(`/api/v1/likes/${from.id}?kind=like`, { token: to.token });
        if (match.body?.match?.id === undefined) throw new Error(`pair ${i} did not match: ${match.status} ${match.text.slice(0, 200)}`);
        matches.push({ from, matchId: match.body.match.id as number });
      }

      ctx.progress.info(`${pairs} senders chat for ${ctx.options.duration} s, each recipient with a webhook…`);
      const mark = await ctx.monitor.mark();
      recorder.reset();
      const stopAt = performance.now() + ctx.options.duration * 1000;
      let sent = 0;
      await Promise.all(
        matches.map(async ({ from, matchId }, p) => {
          for (let n = 0; performance.now() < stopAt && !ctx.aborted(); n++) {
            const tag = `bench-wh-${p}-${n}`;
            const started = performance.now();
            sentAt.set(tag, started);
            const res = await ctx.api.post(`/api/v1/matches/${matchId}/messages`, { token: from.token, body: { body: tag } }).catch(() => undefined);
            recorder.record('POST message', res?.status ?? 'net:error', performance.now() - started);
            if (res?.status === 201) sent++;
          }
        }),
      );
      const sendSeconds = recorder.elapsedMs / 1000;
      const drainDeadline = performance.now() + DRAIN_TIMEOUT_MS;
      while (delivered < sent && performance.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 50));
      recorder.stop();
      const window = await ctx.monitor.since(mark);
      const totalSeconds = recorder.elapsedMs / 1000;

      result.phases.push({
        name: 'chat with webhooks',
        description: `${pairs} senders POST messages back to back for ${ctx.options.duration} s; each recipient's webhook (message.created) answers 200 at once`,
        connections: pairs,
        operations: recorder.all(),
        window,
      });
      const latency = recorder.stats('delivery: message sent → receiver').latency;
      const committed = recorder.stats('delivery: event committed → receiver').latency;
      result.figures.messages_acknowledged = sent;
      result.figures.deliveries = delivered;
      result.figures.undelivered_after_drain = Math.max(0, sent - delivered);
      result.figures.duplicate_deliveries = duplicates;
      result.figures.deliveries_per_s = delivered / totalSeconds;
      result.figures.messages_per_s = sent / sendSeconds;
      result.figures.delivery_latency_p50_ms = latency.p50;
      result.figures.delivery_latency_p99_ms = latency.p99;
      result.figures.commit_to_receiver_p50_ms = committed.p50;
      result.figures.commit_to_receiver_p99_ms = committed.p99;
      result.notes.push(
        "Latency: from the bench sending POST /messages to the delivery reaching the receiver (the event goes through the outbox step, the stream, the BullMQ job of its webhook chain and one signed HTTP POST). Each webhook delivers in order, one event at a time, so a chain's throughput is bounded by its receiver's round trip; more webhooks deliver in parallel (WEBHOOK_CONCURRENCY per worker).",
      );
      return result;
    } finally {
      receiver.close();
    }
  },
};

/** The bench's receiver: answers 200 at once and hands each delivery (its path, webhook-id and body) to `onDelivery`. */
async function listen(onDelivery: (path: string, id: string, body: string) => void): Promise<{ url: string; close: () => void }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      onDelivery(req.url ?? '', String(req.headers['webhook-id'] ?? ''), Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
