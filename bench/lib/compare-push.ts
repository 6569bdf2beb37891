import { BackgroundLoad } from './background-load.js';
import { EventSocket, taggedBody, wsUrl } from './event-socket.js';
import { sleep } from './phase.js';
import type { BenchAgent } from './population.js';
import { Recorder } from './recorder.js';
import type { BenchContext, PhaseResult } from './types.js';

const WS_PATH = '/api/v1/ws';
/** Messages sent one at a time in a turn: enough for a p99 that is not the maximum. */
const MESSAGES = 200;
const FRAME_TIMEOUT_MS = 5_000;
/** Agents sending the background passes. */
const BACKGROUND_AGENTS = 40;

/** A match whose first agent sends and whose second agent's socket is open to receive. */
export type PushChat = { sender: BenchAgent; matchId: number; receiver: EventSocket };
export type PushPlan = { chats: PushChat[]; background: BenchAgent[] };

/** Opens the receivers' sockets of up to four matched pairs, and takes the agents of the background load. */
export async function preparePush(ctx: BenchContext, pairs: Array<{ sender: BenchAgent; receiver: BenchAgent; matchId: number }>): Promise<PushPlan> {
  const chats: PushChat[] = [];
  for (const { sender, receiver, matchId } of pairs.slice(0, 4)) {
    const socket = await EventSocket.open(wsUrl(ctx.target.baseUrl, WS_PATH), { token: receiver.token, localAddress: ctx.addresses.next() });
    chats.push({ sender, matchId, receiver: socket });
  }
  return { chats, background: await ctx.population.take(BACKGROUND_AGENTS, 'the background passes of the push phase') };
}

/**
 * Push latency (a message's POST sent → its frame read at the other agent's socket), one message at a time,
 * while pass swipes run in the background at `ratePerSecond` from a process of their own.
 */
export async function pushPhase(ctx: BenchContext, plan: PushPlan, label: string, ratePerSecond: number): Promise<PhaseResult> {
  const connections = Math.max(16, Math.min(256, Math.ceil(ratePerSecond / 16)));
  const load = BackgroundLoad.start(ctx, plan.background, { ratePerSecond, connections, durationMs: 5 * 60_000 });
  const recorder = new Recorder();
  try {
    await sleep(1_000);
    ctx.monitor.extraGeneratorCpu += load.cpuSinceLastCall();
    const mark = await ctx.monitor.mark();
    recorder.reset();
    for (let m = 0; m < MESSAGES && !ctx.aborted(); m++) {
      const { sender, matchId, receiver } = plan.chats[m % plan.chats.length]!;
      const nonce = `${ctx.runId}-${label.replace(/\s/g, '-')}-${m}`;
      const frame = receiver.arrival(`message:${nonce}`, FRAME_TIMEOUT_MS);
      const sent = performance.now();
      const res = await ctx.api.post(`/api/v1/matches/${matchId}/messages`, { token: sender.token, body: { body: taggedBody(nonce) } });
      if (res.status !== 201) recorder.fail('push message.created', String(res.status));
      const at = await frame;
      if (at === undefined) recorder.fail('push message.created', 'missing');
      else recorder.record('push message.created', 'ok', at - sent, at);
    }
    recorder.stop();
    ctx.monitor.extraGeneratorCpu += load.cpuSinceLastCall();
    return {
      name: `${label} push`,
      description: `${MESSAGES} messages one at a time (POST sent → message.created at the other agent's socket) under ${Math.round(ratePerSecond)} pass swipes/s in the background`,
      connections: 1,
      operations: recorder.all(),
      window: await ctx.monitor.since(mark),
    };
  } finally {
    await load.stop();
  }
}

export function closePush(plan: PushPlan | undefined) {
  for (const chat of plan?.chats ?? []) chat.receiver.close();
}
