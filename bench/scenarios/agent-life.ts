import { BackgroundLoad, totalThroughput, type BackgroundResult } from '../lib/background-load.js';
import { EventSocket, taggedBody, wsUrl } from '../lib/event-socket.js';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { sleep } from '../lib/phase.js';
import type { BenchAgent } from '../lib/population.js';
import { agentProfile } from '../lib/profiles.js';
import { Recorder } from '../lib/recorder.js';
import { emptyResult, type BenchContext, type PhaseResult, type Scenario, type ScenarioResult } from '../lib/types.js';

/** Messages each condition (idle, loaded) sends at least, for a p99 that is not the maximum. */
const MESSAGES_PER_CONDITION = 400;
/** Pairs chatting at once: one message in flight in all, so that idle is idle and only the background differs between the conditions. */
const CHAT_CONCURRENCY = 1;
const SETUP_CONCURRENCY = 16;
const FRAME_TIMEOUT_MS = 5_000;
const PROBE_MS = 3_000;
const WS_PATH = '/api/v1/ws';

/** Two agents with their sockets open, and the match they chat in. */
type Pair = { a: BenchAgent; b: BenchAgent; socketA: EventSocket; socketB: EventSocket };
/** Two agents chatting: `from` likes first and sends the first message; matchId once they have matched. */
type Chat = { from: BenchAgent; to: BenchAgent; socketFrom: EventSocket; socketTo: EventSocket; key: string; matchId?: number };

/**
 * The full agent life, with sockets open, and push latency in two conditions. Pairs of agents register through
 * the API, open their event socket and read their feed. Then, with nothing else running (idle), each pair likes
 * each other (the second like completes a match) and chats; then again under a steady background load
 * (pass-only swipes at a fraction of the swipe capacity measured in the same run), each agent matching the next
 * pair's other agent and chatting in that match. Push latency is measured from sending the like that completes
 * a match to the match.created frame at both sockets, and from sending a message to the message.created frame at
 * the recipient; the message POST and GET /api/v1/me beside it for reference.
 */
export const agentLifeScenario: Scenario = {
  name: 'agent-life',
  title: 'Full agent life with sockets open, and push latency idle and under background load',
  summary:
    'register → socket → feed → like → match → chat, in pairs; push latency of match and message frames idle, then under a fraction of the swipe capacity',
  async run(ctx) {
    const result = emptyResult(this);
    for (const [method, path] of [
      ['POST', '/api/v1/likes/{user_id}'],
      ['POST', '/api/v1/matches/{match_id}/messages'],
      ['GET', '/api/v1/discovery/feed'],
      ['GET', '/api/v1/me'],
    ] as const) {
      if (!ctx.hasRoute(method, path)) return { ...result, skipped: `${method} ${path} is not served by the target` };
    }
    const probe = (await ctx.population.share(1, 'the socket probe'))[0]!;
    try {
      (await EventSocket.open(wsUrl(ctx.target.baseUrl, WS_PATH), { token: probe.token })).close();
    } catch (error) {
      return { ...result, skipped: `the event socket ${WS_PATH} does not open: ${(error as Error).message}` };
    }

    const sockets: EventSocket[] = [];
    try {
      const pairs = await setUpPairs(ctx, result, sockets);
      if (pairs.length === 0) return { ...result, error: 'no pair could be set up' };
      const messagesPerPair = Math.max(4, Math.ceil(MESSAGES_PER_CONDITION / pairs.length));
      result.figures.messages_per_pair_per_condition = messagesPerPair;
      // Ranking jobs the registrations queued settle before "idle" is measured.
      await sleep(1_000);

      const idleChats: Chat[] = pairs.map((p, i) => ({ from: p.a, to: p.b, socketFrom: p.socketA, socketTo: p.socketB, key: `idle-${i}` }));
      const idle = await condition(ctx, 'idle', 'no background load', idleChats, messagesPerPair, result.notes);
      result.phases.push(idle);
      Object.assign(result.figures, conditionFigures('idle', idle));

      if (ctx.options.backgroundRate === 0) {
        result.notes.push('--background-rate 0: push latency measured idle only.');
        return result;
      }
      if (ctx.aborted()) return result;
      const group = await ctx.population.take(Math.min(40, ctx.options.agents), 'the background load');
      const background = await backgroundRate(ctx, result, group);
      // Each agent a matches the next pair's b (new matches, sockets already open); with one pair, it chats again in its match.
      const loadedChats: Chat[] =
        pairs.length >= 2
          ? pairs.map((p, i) => {
              const next = pairs[(i + 1) % pairs.length]!;
              return { from: p.a, to: next.b, socketFrom: p.socketA, socketTo: next.socketB, key: `loaded-${i}` };
            })
          : idleChats.map((chat) => ({ ...chat, key: `loaded-${chat.key}` }));
      // Paced connections send one request per interval at most: an interval of about 60 ms leaves room for slow answers.
      const connections = Math.max(16, Math.min(256, Math.ceil(background.rate / 16)));
      ctx.progress.info(
        `background load: ${Math.round(background.rate)} req/s (pass-only swipes by ${group.length} agents, ${connections} connections, own process)…`,
      );
      const load = BackgroundLoad.start(ctx, group, { ratePerSecond: background.rate, connections, durationMs: 15 * 60_000 });
      let loaded: PhaseResult;
      let backgroundResult: BackgroundResult;
      try {
        await sleep(2_000);
        loaded = await condition(
          ctx,
          'loaded',
          `under about ${Math.round(background.rate)} req/s of background load`,
          loadedChats,
          messagesPerPair,
          result.notes,
          load,
          pairs.length >= 2,
        );
      } finally {
        backgroundResult = await load.stop();
      }
      result.phases.push(loaded);
      result.phases.push({
        name: 'background',
        description: `steady background load paced to ${Math.round(background.rate)} req/s (pass-only swipes by other agents, from a process of its own) during the loaded condition`,
        connections,
        operations: backgroundResult.operations,
      });
      result.figures.background_achieved_req_s = totalThroughput(backgroundResult);
      Object.assign(result.figures, conditionFigures('loaded', loaded));
      if (pairs.length < 2)
        result.notes.push('One pair only: no new match could form under load (push_match_loaded_* absent); the pair chatted again in its match.');
    } finally {
      result.figures.sockets_open_at_end = sockets.length;
      for (const socket of sockets) socket.close();
    }
    result.notes.push(
      'Push latency is measured from the moment the bench writes the HTTP request that causes the event to the moment the frame is read from the socket, on the same clock. ' +
        `Both conditions: one message in flight at a time (${CHAT_CONCURRENCY} pair chatting at once), each message followed by the sender's GET /api/v1/me.`,
    );
    return result;
  },
};

/** Registers the pairs, opens their sockets (a's on the first process, b's on the second when there are two) and reads their feeds. */
async function setUpPairs(ctx: BenchContext, result: ScenarioResult, sockets: EventSocket[]): Promise<Pair[]> {
  const recorder = new Recorder();
  const total = ctx.options.pairs;
  const pairs: Pair[] = [];
  const failures: string[] = [];
  const deadline = performance.now() + Math.max(ctx.options.duration * 1000, 30_000) * 3;
  ctx.progress.info(`${total} pairs register, open their sockets and read their feed, ${SETUP_CONCURRENCY} at a time…`);
  const mark = await ctx.monitor.mark();
  recorder.reset();
  let next = 0;
  const ticker = setInterval(
    () =>
      ctx.progress.tick('agent-life: setup', recorder, recorder.elapsedMs, deadline - performance.now() + recorder.elapsedMs, `pairs ${pairs.length}/${total}`),
    1_000,
  );
  try {
    await Promise.all(
      Array.from({ length: Math.min(SETUP_CONCURRENCY, total) }, async () => {
        while (next < total && performance.now() < deadline && !ctx.aborted()) {
          const index = next++;
          await setUpPair(ctx, index, recorder, sockets).then(
            (pair) => pairs.push(pair),
            (error: Error) => {
              recorder.fail('pair setup', 'failed');
              if (failures.length < 3) failures.push(error.message.slice(0, 200));
            },
          );
        }
      }),
    );
  } finally {
    clearInterval(ticker);
    ctx.progress.endLive();
    recorder.stop();
  }
  result.phases.push({
    name: 'setup',
    description: `${total} pairs: register both agents, open both event sockets, read both feeds (${SETUP_CONCURRENCY} pairs at a time)`,
    connections: SETUP_CONCURRENCY * 2,
    operations: recorder.all(),
    window: await ctx.monitor.since(mark),
  });
  for (const failure of failures) result.notes.push(`A pair's setup failed: ${failure}`);
  result.figures.pairs_set_up = pairs.length;
  result.figures.agents_per_second = (2 * pairs.length) / (recorder.elapsedMs / 1000);
  return pairs;
}

async function setUpPair(ctx: BenchContext, index: number, recorder: Recorder, sockets: EventSocket[]): Promise<Pair> {
  const register = async (n: number): Promise<BenchAgent> => {
    const profile = agentProfile(`${ctx.runId}-life`, n);
    const res = await timed<{ token: string; user_id: number }>(
      recorder,
      'POST register',
      () => ctx.api.post('/api/v1/agents/register', { body: profile, localAddress: ctx.addresses.next() }),
      201,
    );
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
  await Promise.all([a, b].map((agent) => timed(recorder, 'GET feed', () => ctx.api.get('/api/v1/discovery/feed?limit=20', { token: agent.token }), 200)));
  return { a, b, socketA, socketB };
}

/**
 * One condition: every chat's two agents like each other (when `match`), then send `messagesPerPair` messages in
 * turn, each followed by the sender's GET /me; CHAT_CONCURRENCY chats at a time.
 */
async function condition(
  ctx: BenchContext,
  name: string,
  what: string,
  chats: Chat[],
  messagesPerPair: number,
  notes: string[],
  background?: BackgroundLoad,
  match = true,
): Promise<PhaseResult> {
  const recorder = new Recorder();
  const failures: string[] = [];
  ctx.progress.info(
    `${name}: ${chats.length} pairs ${match ? 'match and ' : ''}send ${messagesPerPair} messages each, ${CHAT_CONCURRENCY} pairs at a time, ${what}…`,
  );
  if (background) ctx.monitor.extraGeneratorCpu += background.cpuSinceLastCall();
  const mark = await ctx.monitor.mark();
  recorder.reset();
  let next = 0;
  let done = 0;
  const ticker = setInterval(
    () => ctx.progress.tick(`agent-life: ${name}`, recorder, recorder.elapsedMs, recorder.elapsedMs, `pairs ${done}/${chats.length}`),
    1_000,
  );
  try {
    await Promise.all(
      Array.from({ length: Math.min(CHAT_CONCURRENCY, chats.length) }, async () => {
        while (next < chats.length && !ctx.aborted()) {
          const chat = chats[next++]!;
          await converse(ctx, chat, recorder, messagesPerPair, match).catch((error: Error) => {
            recorder.fail('pair chat', 'failed');
            if (failures.length < 3) failures.push(error.message.slice(0, 200));
          });
          done++;
        }
      }),
    );
  } finally {
    clearInterval(ticker);
    ctx.progress.endLive();
    recorder.stop();
  }
  if (background) ctx.monitor.extraGeneratorCpu += background.cpuSinceLastCall();
  for (const failure of failures) notes.push(`A pair's chat failed (${name}): ${failure}`);
  return {
    name,
    description: `${what}: ${chats.length} pairs${match ? ' like each other (push match.created = completing like sent → frame at each socket), then' : ''} send ${messagesPerPair} messages each, alternating (push message.created = POST sent → frame at the recipient), each followed by GET /api/v1/me`,
    connections: CHAT_CONCURRENCY * 2,
    operations: recorder.all(),
    window: await ctx.monitor.since(mark),
  };
}

async function converse(ctx: BenchContext, chat: Chat, recorder: Recorder, messages: number, match: boolean) {
  const { from, to, socketFrom, socketTo } = chat;
  if (match) {
    await timed(recorder, 'POST like', () => ctx.api.post(`/api/v1/likes/${to.id}?kind=like`, { token: from.token }), 200);
    const atFrom = socketFrom.arrival(`match:${to.id}`, FRAME_TIMEOUT_MS);
    const atTo = socketTo.arrival(`match:${from.id}`, FRAME_TIMEOUT_MS);
    const sent = performance.now();
    const like = await timed<{ matched: boolean; match: { id: number } | null }>(
      recorder,
      'POST like (completes match)',
      () => ctx.api.post(`/api/v1/likes/${from.id}?kind=like`, { token: to.token }),
      200,
    );
    if (!like.body.matched || !like.body.match) throw new Error('the second like did not create a match');
    chat.matchId = like.body.match.id;
    for (const at of await Promise.all([atFrom, atTo])) {
      if (at === undefined) recorder.fail('push match.created', 'missing');
      else recorder.record('push match.created', 'ok', at - sent, at);
    }
  }
  const matchId = chat.matchId;
  if (matchId === undefined) throw new Error(`${from.id} and ${to.id} have no match to chat in`);
  for (let m = 0; m < messages; m++) {
    const [sender, socket] = m % 2 === 0 ? [from, socketTo] : [to, socketFrom];
    const nonce = `${ctx.runId}-${chat.key}-${m}`;
    const frame = socket.arrival(`message:${nonce}`, FRAME_TIMEOUT_MS);
    const t = performance.now();
    await timed(
      recorder,
      'POST message',
      () => ctx.api.post(`/api/v1/matches/${matchId}/messages`, { token: sender.token, body: { body: taggedBody(nonce) } }),
      201,
    );
    const at = await frame;
    if (at === undefined) recorder.fail('push message.created', 'missing');
    else recorder.record('push message.created', 'ok', at - t, at);
    await timed(recorder, 'GET /me', () => ctx.api.get('/api/v1/me', { token: sender.token }), 200);
  }
}

async function timed<T>(recorder: Recorder, tag: string, step: () => Promise<JsonResponse<T>>, expect: number): Promise<JsonResponse<T>> {
  const t = performance.now();
  const res = await step();
  recorder.record(tag, res.status, performance.now() - t);
  if (res.status !== expect) throw new Error(`${tag} answered ${res.status}: ${res.text.slice(0, 120)}`);
  return res;
}

/**
 * The background rate: --background-rate when given, else --background-fraction × the pass-only swipe capacity
 * the swipes scenario measured on this target, else × a short unpaced probe of the background load itself
 * (pass-only swipes too).
 */
async function backgroundRate(ctx: BenchContext, result: ScenarioResult, group: BenchAgent[]): Promise<{ rate: number }> {
  const { options } = ctx;
  let capacity = ctx.facts.passSwipeCapacity;
  if (options.backgroundRate === undefined && !capacity) {
    ctx.progress.info(
      `no swipe capacity measured in this run: probing the background load (pass-only swipes) unpaced for ${PROBE_MS / 1000}s (${options.connections} connections)…`,
    );
    const probe = await BackgroundLoad.start(ctx, group, {
      ratePerSecond: 0,
      connections: options.connections,
      durationMs: PROBE_MS,
      warmupMs: 500,
    }).finished();
    capacity = {
      reqPerSecond: totalThroughput(probe),
      source: `a ${PROBE_MS / 1000} s unpaced probe of the background load (pass-only swipes by ${group.length} agents)`,
    };
  }
  if (capacity) {
    result.figures.swipe_capacity_req_s = capacity.reqPerSecond;
    result.figures.swipe_capacity_source = capacity.source;
  }
  const rate = options.backgroundRate ?? options.backgroundFraction * capacity!.reqPerSecond;
  result.figures.background_fraction_of_swipe_capacity =
    options.backgroundRate === undefined ? options.backgroundFraction : capacity ? rate / capacity.reqPerSecond : 'n/a (explicit --background-rate)';
  result.figures.background_rate_req_s = rate;
  return { rate };
}

/** The headline figures of one condition, named `<what>_<condition>_<p>_ms`. */
function conditionFigures(condition: string, phase: PhaseResult): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const [tag, name] of [
    ['push message.created', 'push_message'],
    ['POST message', 'post_message'],
    ['GET /me', 'get_me'],
    ['push match.created', 'push_match'],
  ] as const) {
    const stats = phase.operations[tag];
    if (!stats || stats.count === 0) continue;
    figures[`${name}_${condition}_p50_ms`] = stats.latency.p50;
    figures[`${name}_${condition}_p99_ms`] = stats.latency.p99;
    if (tag === 'push message.created' || tag === 'push match.created') figures[`${name}_${condition}_samples`] = stats.count;
  }
  return figures;
}
