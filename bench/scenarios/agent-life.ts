import { EventSocket, taggedBody, wsUrl } from '../lib/event-socket.js';
import { startLoad, type ClientScript, type LoadHandle } from '../lib/http-load.js';
import type { JsonResponse } from '../../src/client/json-client.js';
import { bearer } from '../lib/phase.js';
import type { BenchAgent } from '../lib/population.js';
import { agentProfile } from '../lib/profiles.js';
import { Recorder } from '../lib/recorder.js';
import { emptyResult, type BenchContext, type Scenario } from '../lib/types.js';

const MESSAGES_PER_PAIR = 4;
const FRAME_TIMEOUT_MS = 5_000;
const WS_PATH = '/api/v1/ws';

/**
 * The full agent life, with sockets open: pairs of agents register through the API, open their event
 * socket, read their feed, like each other (the second like completes a match) and chat. Measured: each
 * step's latency, and end-to-end push latency — from sending the like that completes a match to the
 * match.created frame at both sockets, and from sending a message to the message.created frame at the
 * recipient — while a steady background load of feed reads and swipes runs.
 */
export const agentLifeScenario: Scenario = {
  name: 'agent-life',
  title: 'Full agent life with sockets open, and push latency under background load',
  summary: 'register → socket → feed → like → match → chat, in pairs; push latency of match and message frames under steady load',
  async run(ctx) {
    const result = emptyResult(this);
    for (const [method, path] of [['POST', '/api/v1/likes/{user_id}'], ['POST', '/api/v1/matches/{match_id}/messages'], ['GET', '/api/v1/discovery/feed']] as const) {
      if (!ctx.hasRoute(method, path)) return { ...result, skipped: `${method} ${path} is not served by the target` };
    }
    const probe = (await ctx.population.share(1, 'the socket probe'))[0]!;
    try {
      (await EventSocket.open(wsUrl(ctx.target.baseUrl, WS_PATH), { token: probe.token })).close();
    } catch (error) {
      return { ...result, skipped: `the event socket ${WS_PATH} does not open: ${(error as Error).message}` };
    }

    const background = ctx.options.backgroundRate > 0 ? await startBackground(ctx) : undefined;
    const recorder = new Recorder();
    const sockets: EventSocket[] = [];
    const pairs = ctx.options.pairs;
    const concurrency = Math.min(16, pairs);
    const deadline = performance.now() + Math.max(ctx.options.duration * 1000, 30_000) * 3;
    ctx.progress.info(`${pairs} pairs live their life, ${concurrency} at a time, ${background ? `with ${ctx.options.backgroundRate} req/s of background load` : 'without background load'}…`);
    const mark = await ctx.monitor.mark();
    recorder.reset();
    let next = 0;
    let lives = 0;
    const failures: string[] = [];
    const started = performance.now();
    const ticker = setInterval(() => ctx.progress.tick('agent-life', recorder, performance.now() - started, deadline - started, `pairs done ${lives}/${pairs}`), 1_000);
    try {
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < pairs && performance.now() < deadline && !ctx.aborted()) {
            const index = next++;
            await livePair(ctx, index, recorder, sockets).catch((error: Error) => {
              recorder.fail('pair life', 'failed');
              if (failures.length < 3) failures.push(error.message.slice(0, 200));
            });
            lives++;
          }
        }),
      );
    } finally {
      clearInterval(ticker);
      ctx.progress.endLive();
      recorder.stop();
    }
    const window = await ctx.monitor.since(mark);
    const backgroundRecorder = background ? await background.stop() : undefined;
    for (const socket of sockets) socket.close();

    result.phases.push({
      name: 'life',
      description: `${pairs} pairs: register, open socket, read feed, like each other, ${MESSAGES_PER_PAIR} messages; push = request sent → frame received`,
      connections: concurrency * 2,
      operations: recorder.all(),
      window,
    });
    if (backgroundRecorder) {
      result.phases.push({
        name: 'background',
        description: `steady background load at about ${ctx.options.backgroundRate} req/s (feed reads and swipes by other agents) during the lives`,
        operations: backgroundRecorder.all(),
      });
    }
    for (const failure of failures) result.notes.push(`A pair's life failed: ${failure}`);
    result.figures.pairs_completed = lives - (recorder.stats('pair life').outcomes.failed ?? 0);
    result.figures.agents_per_second = (2 * lives) / (recorder.elapsedMs / 1000);
    result.figures.sockets_open_at_end = sockets.length;
    const match = recorder.stats('push match.created');
    const message = recorder.stats('push message.created');
    result.figures.push_match_p50_ms = match.latency.p50;
    result.figures.push_match_p99_ms = match.latency.p99;
    result.figures.push_message_p50_ms = message.latency.p50;
    result.figures.push_message_p99_ms = message.latency.p99;
    result.notes.push('Push latency is measured from the moment the bench writes the HTTP request that causes the event to the moment the frame is read from the socket, on the same clock.');
    return result;
  },
};

/** One pair's life; every step is timed into `recorder`. */
async function livePair(ctx: BenchContext, index: number, recorder: Recorder, sockets: EventSocket[]) {
  const timed = async <T>(tag: string, step: () => Promise<JsonResponse<T>>, expect: number): Promise<JsonResponse<T>> => {
    const t = performance.now();
    const res = await step();
    recorder.record(tag, res.status, performance.now() - t);
    if (res.status !== expect) throw new Error(`${tag} answered ${res.status}: ${res.text.slice(0, 120)}`);
    return res;
  };
  const register = async (n: number): Promise<BenchAgent> => {
    const profile = agentProfile(`${ctx.runId}-life`, n);
    const res = await timed<{ token: string; user_id: number }>('POST register', () => ctx.api.post('/api/v1/agents/register', { body: profile, localAddress: ctx.addresses.next() }), 201);
    return { n, id: res.body.user_id, token: res.body.token, email: profile.email, password: profile.password, interests: profile.interests.split(', ') };
  };
  const [a, b] = await Promise.all([register(2 * index), register(2 * index + 1)]);
  // With several service processes, a's socket is on the first and b's on the second: the requests go to the
  // first, so b's frames cross processes (sharded pub/sub) and a's do not.
  const urls = ctx.target.baseUrls;
  const open = async (agent: BenchAgent, at: number) => {
    const t = performance.now();
    const socket = await EventSocket.open(wsUrl(urls[at % urls.length]!, WS_PATH), { token: agent.token, localAddress: ctx.addresses.next() });
    recorder.record('socket open', 'ok', performance.now() - t);
    sockets.push(socket);
    return socket;
  };
  const [socketA, socketB] = await Promise.all([open(a, 0), open(b, 1)]);
  await Promise.all([a, b].map((agent) => timed('GET feed', () => ctx.api.get('/api/v1/discovery/feed?limit=20', { token: agent.token }), 200)));
  await timed('POST like', () => ctx.api.post(`/api/v1/likes/${b.id}?kind=like`, { token: a.token }), 200);

  const matchA = socketA.arrival(`match:${b.id}`, FRAME_TIMEOUT_MS);
  const matchB = socketB.arrival(`match:${a.id}`, FRAME_TIMEOUT_MS);
  const sent = performance.now();
  const like = await timed<{ matched: boolean; match: { id: number } | null }>('POST like (completes match)', () => ctx.api.post(`/api/v1/likes/${a.id}?kind=like`, { token: b.token }), 200);
  if (!like.body.matched || !like.body.match) throw new Error('the second like did not create a match');
  for (const at of await Promise.all([matchA, matchB])) {
    if (at === undefined) recorder.fail('push match.created', 'missing');
    else recorder.record('push match.created', 'ok', at - sent, at);
  }

  const matchId = like.body.match.id;
  for (let m = 0; m < MESSAGES_PER_PAIR; m++) {
    const [from, to] = m % 2 === 0 ? [a, socketB] : [b, socketA];
    const nonce = `${ctx.runId}-${index}-${m}`;
    const frame = to.arrival(`message:${nonce}`, FRAME_TIMEOUT_MS);
    const t = performance.now();
    await timed('POST message', () => ctx.api.post(`/api/v1/matches/${matchId}/messages`, { token: from.token, body: { body: taggedBody(nonce) } }), 201);
    const at = await frame;
    if (at === undefined) recorder.fail('push message.created', 'missing');
    else recorder.record('push message.created', 'ok', at - t, at);
  }
}

/** A steady load of feed reads and swipes by a separate group of agents, paced to --background-rate. */
async function startBackground(ctx: BenchContext): Promise<{ stop(): Promise<Recorder> }> {
  const group = await ctx.population.take(Math.min(40, ctx.options.agents), 'the background load');
  const client = (i: number): ClientScript => {
    const me = group[i % group.length]!;
    const others = group.filter((agent) => agent !== me);
    let k = i;
    return {
      localAddress: ctx.addresses.next(),
      next: () =>
        k++ % 2 === 0
          ? { method: 'GET', path: '/api/v1/discovery/feed?limit=20', headers: bearer(me.token), tag: 'GET feed' }
          : { method: 'POST', path: `/api/v1/likes/${others[k % others.length]!.id}?kind=${k % 3 === 0 ? 'like' : 'pass'}`, headers: bearer(me.token), tag: 'POST like' },
    };
  };
  const handle: LoadHandle = startLoad({
    host: ctx.target.host,
    port: ctx.target.port,
    ports: ctx.target.ports,
    connections: 16,
    durationMs: 15 * 60_000,
    ratePerSecond: ctx.options.backgroundRate,
    maxRequests: ctx.options.maxRequests,
    client,
  });
  return {
    stop: () => {
      handle.stop();
      return handle.done;
    },
  };
}
