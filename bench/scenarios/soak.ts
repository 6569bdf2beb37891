import { EventSocket, wsUrl } from '../lib/event-socket.js';
import type { LoadRequest } from '../lib/http-load.js';
import { bearer, loadPhase, sleep } from '../lib/phase.js';
import type { BenchAgent } from '../lib/population.js';
import { prng } from '../lib/profiles.js';
import { Recorder } from '../lib/recorder.js';
import { slopePerMinute } from '../lib/monitor.js';
import { emptyResult, type BenchContext, type Scenario } from '../lib/types.js';

const SPECTATORS = 200;
const TRICKLE_EVERY_MS = 2_000;
const BROWSE = ['gender=woman,man', 'min_age=25&max_age=45', 'city=lisbon', 'interests=chess,jazz'];

/**
 * A mixed soak for --soak seconds: agents with their event sockets open swipe, read their feed, browse,
 * list their matches, read threads and chat, while spectators watch and a new agent registers every two
 * seconds. Watches server memory, event-loop delay and Redis memory over time.
 */
export const soakScenario: Scenario = {
  name: 'soak',
  title: 'Mixed soak',
  summary: 'swipes, feed, browse, matches, messages with sockets open, spectators watching and a trickle of registrations, for --soak seconds',
  async run(ctx) {
    const result = emptyResult(this);
    for (const [method, path] of [
      ['POST', '/api/v1/likes/{user_id}'],
      ['GET', '/api/v1/discovery/feed'],
      ['POST', '/api/v1/matches/{match_id}/messages'],
    ] as const) {
      if (!ctx.hasRoute(method, path)) return { ...result, skipped: `${method} ${path} is not served by the target` };
    }
    const agents = await ctx.population.take(Math.min(ctx.options.agents, 100), 'the soak');
    const matchesOf = new Map<BenchAgent, number[]>(agents.map((agent) => [agent, []]));
    ctx.progress.info('matching neighbours and opening sockets…');
    await matchNeighbours(ctx, agents, matchesOf);
    const open: EventSocket[] = [];
    let failed = 0;
    const connect = (path: string, token?: string) =>
      EventSocket.open(wsUrl(ctx.target.baseUrl, path), { token, localAddress: ctx.addresses.next(), track: false }).then(
        (socket) => void open.push(socket),
        () => void failed++,
      );
    await Promise.all(agents.map((agent) => connect('/api/v1/ws', agent.token)));
    await Promise.all(Array.from({ length: SPECTATORS }, () => connect('/api/v1/spectator/stream')));
    result.figures.sockets_open = open.length;
    if (failed > 0) result.notes.push(`${failed} sockets did not open.`);

    const durationMs = ctx.options.soak * 1000;
    const trickle = new Recorder();
    let stopTrickle = false;
    const trickling = (async () => {
      while (!stopTrickle && !ctx.aborted()) {
        const t = performance.now();
        const made = await ctx.population.register(1, { connections: 1, durationMs: 10_000 });
        trickle.record('POST register (trickle)', made.length === 1 ? 201 : 'failed', performance.now() - t);
        await sleep(Math.max(0, TRICKLE_EVERY_MS - (performance.now() - t)));
      }
    })();

    const { phase } = await loadPhase(ctx, {
      name: 'mixed',
      description: `${agents.length} agents with sockets open: 35% swipe, 25% feed, 10% browse, 15% message, 10% list matches, 5% read a thread; ${SPECTATORS} spectators; a registration every ${TRICKLE_EVERY_MS / 1000}s`,
      label: 'soak',
      connections: Math.min(ctx.options.connections, agents.length),
      durationMs,
      warmupMs: 0,
      client: (i) => soakClient(agents, i % agents.length, matchesOf),
    });
    stopTrickle = true;
    await trickling;
    trickle.stop();
    Object.assign(phase.operations, trickle.all());
    result.phases.push(phase);
    for (const socket of open) socket.close();

    const samples = phase.window?.samples ?? [];
    const rssSlope = slopePerMinute(samples, (s) => s.rssBytes);
    const redisSlope = slopePerMinute(samples, (s) => s.redisUsedMemory);
    const span = samples.length > 1 ? samples[samples.length - 1]!.t - samples[0]!.t : 0;
    if (span < 30) {
      result.notes.push(
        `Memory growth needs a soak of 30 s or more (this one sampled ${Math.round(span)} s): a short window shows the collector, not a trend.`,
      );
    } else {
      if (rssSlope !== undefined) result.figures.server_rss_growth_mib_per_min = rssSlope / 1024 / 1024;
      if (redisSlope !== undefined) result.figures.redis_memory_growth_mib_per_min = redisSlope / 1024 / 1024;
    }
    result.figures.frames_received = open.reduce((n, s) => n + s.frames, 0);
    const closed = open.filter((s) => s.closeCode !== undefined && s.closeCode !== 1000 && s.closeCode !== 1005);
    if (closed.length > 0)
      result.notes.push(
        `${closed.length} sockets were closed by the server during the soak (codes ${[...new Set(closed.map((s) => s.closeCode))].join(', ')}).`,
      );
    result.notes.push(
      'Memory growth is a least-squares slope over the per-second samples; Redis grows with the data written (swipes, matches, messages, events), the server should not.',
    );
    return result;
  },
};

/** Agent i matches agent i+1 (i even), so that everybody has a thread to write to from the start. */
async function matchNeighbours(ctx: BenchContext, agents: BenchAgent[], matchesOf: Map<BenchAgent, number[]>) {
  for (let i = 0; i + 1 < agents.length; i += 2) {
    const [a, b] = [agents[i]!, agents[i + 1]!];
    await ctx.api.post(`/api/v1/likes/${b.id}?kind=like`, { token: a.token });
    const res = await ctx.api.post(`/api/v1/likes/${a.id}?kind=like`, { token: b.token });
    const id = res.body?.match?.id as number | undefined;
    if (id) {
      matchesOf.get(a)!.push(id);
      matchesOf.get(b)!.push(id);
    }
  }
}

function soakClient(agents: BenchAgent[], a: number, matchesOf: Map<BenchAgent, number[]>) {
  const me = agents[a]!;
  const random = prng(me.id * 13 + Math.floor(Math.random() * 1000));
  const headers = bearer(me.token);
  const jsonHeaders = { ...headers, 'Content-Type': 'application/json' };
  const others = agents.filter((agent) => agent !== me);
  let k = Math.floor(random() * others.length);
  let sent = 0;
  return {
    next: (): LoadRequest => {
      const roll = random();
      const matches = matchesOf.get(me)!;
      const match = matches[Math.floor(random() * matches.length)];
      if (roll < 0.35) {
        const kindRoll = random();
        const kind = kindRoll < 0.6 ? 'like' : kindRoll < 0.95 ? 'pass' : 'super_like';
        return { method: 'POST', path: `/api/v1/likes/${others[k++ % others.length]!.id}?kind=${kind}`, headers, tag: 'POST like' };
      }
      if (roll < 0.6 || (roll >= 0.7 && roll < 0.85 && match === undefined))
        return { method: 'GET', path: '/api/v1/discovery/feed?limit=20', headers, tag: 'GET feed' };
      if (roll < 0.7) return { method: 'GET', path: `/api/v1/discovery/browse?${BROWSE[k % BROWSE.length]}`, headers, tag: 'GET browse' };
      if (roll < 0.85) {
        return {
          method: 'POST',
          path: `/api/v1/matches/${match}/messages`,
          headers: jsonHeaders,
          body: JSON.stringify({ body: `soak message ${++sent} from ${me.id}` }),
          tag: 'POST message',
        };
      }
      if (roll < 0.95 || match === undefined) return { method: 'GET', path: '/api/v1/matches?limit=20', headers, tag: 'GET matches' };
      return { method: 'GET', path: `/api/v1/matches/${match}/messages?limit=20`, headers, tag: 'GET messages' };
    },
    onResponse: (request: LoadRequest, status: number, body: Buffer) => {
      if (status !== 200 || request.tag !== 'POST like' || !body.includes('"matched":true')) return;
      const id = (JSON.parse(body.toString()) as { match?: { id: number } }).match?.id;
      const target = agents.find((agent) => request.path.startsWith(`/api/v1/likes/${agent.id}?`));
      if (id === undefined || !target) return;
      for (const agent of [me, target]) if (!matchesOf.get(agent)!.includes(id)) matchesOf.get(agent)!.push(id);
    },
  };
}
