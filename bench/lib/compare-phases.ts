import { waitForFeeds } from '../scenarios/discovery.js';
import { preparePush, pushPhase, type PushPlan } from './compare-push.js';
import { bearer, loadPhase, wrkPhase } from './phase.js';
import type { BenchAgent } from './population.js';
import { isSuccess } from './recorder.js';
import type { BenchContext, PhaseResult } from './types.js';

const FEED = '/api/v1/discovery/feed';
const MAX_PAIRS = 16;

/** What one side needs for its turns: wrk's agents files (one per round), chatting matches and feed readers, made once. */
export type SidePlan = {
  passFiles: string[];
  likeFiles: string[];
  chats: Array<{ sender: BenchAgent; matchId: number }>;
  readers: BenchAgent[];
  push: PushPlan;
};

/**
 * Registers the side's agents through its API: `--agents` swipers that pass, as many that like (matches form
 * as each pair likes both ways), and up to 16 matched pairs that chat. Each swiper walks every other in turn
 * (agent a: a+1, a+2, … of its group), so both sides get the same swipes; each round walks its own share of
 * those targets (round r: every `rounds`-th from the r-th), so that a round's swipes are first swipes on their
 * targets, as from a feed, until a swiper has walked its whole share.
 */
export async function prepareSide(ctx: BenchContext): Promise<SidePlan> {
  if (!('script' in ctx.wrk)) throw new Error(`--compare loads the swipes with wrk: ${ctx.wrk.missing}`);
  const script = ctx.wrk.script;
  const rounds = ctx.options.compareRounds;
  const walk = (group: BenchAgent[], round: number) =>
    script.writeAgents(
      group.map((agent, a) => ({
        token: agent.token,
        targets: group.map((_, k) => group[(a + k) % group.length]!.id).filter((_, k) => k > 0 && k % rounds === round % rounds),
      })),
    );
  const everyRound = (group: BenchAgent[]) => Array.from({ length: rounds }, (_, r) => walk(group, r + 1));
  const passers = await ctx.population.take(ctx.options.agents, 'the pass swipes');
  const likers = await ctx.population.take(ctx.options.agents, 'the like swipes');
  const pairs = Math.max(1, Math.min(MAX_PAIRS, ctx.options.pairs));
  const chatters = await ctx.population.take(pairs * 2, 'the messages');
  const chats: SidePlan['chats'] = [];
  const talks: Array<{ sender: BenchAgent; receiver: BenchAgent; matchId: number }> = [];
  for (let i = 0; i < pairs; i++) {
    const [a, b] = [chatters[2 * i]!, chatters[2 * i + 1]!];
    await ctx.api.post(`/api/v1/likes/${b.id}?kind=like`, { token: a.token });
    const match = await ctx.api.post(`/api/v1/likes/${a.id}?kind=like`, { token: b.token });
    const matchId = match.body?.match?.id as number | undefined;
    if (matchId === undefined) throw new Error(`pair ${i} did not match: ${match.status} ${match.text.slice(0, 200)}`);
    chats.push({ sender: a, matchId }, { sender: b, matchId });
    talks.push({ sender: a, receiver: b, matchId });
  }
  await waitForFeeds(ctx, passers);
  const push = await preparePush(ctx, talks);
  return { passFiles: everyRound(passers), likeFiles: everyRound(likers), chats, readers: passers, push };
}

/**
 * One turn (round `round`, from 1) on one side: passes and likes from wrk, then messages and feed reads from
 * the Node generator, then push latency under background passes at `pushRateOf(the turn's pass swipes/s)`.
 */
export async function runTurn(
  ctx: BenchContext,
  plan: SidePlan,
  label: string,
  round: number,
  pushRateOf: (passReqS: number) => number,
): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  const add = (key: string, phase: PhaseResult, tag: string) => Object.assign(figures, phaseFigures(key, phase, tag));
  const swipe = async (kind: 'pass' | 'like', agentsFile: string) =>
    (await wrkPhase(ctx, { name: `${label} ${kind}`, description: `POST /api/v1/likes/{id}?kind=${kind} (wrk)`, tag: 'POST like', agentsFile, kind })).phase;
  add('pass', await swipe('pass', plan.passFiles[(round - 1) % plan.passFiles.length]!), 'POST like');
  if (ctx.aborted()) return figures;
  add('like', await swipe('like', plan.likeFiles[(round - 1) % plan.likeFiles.length]!), 'POST like');
  if (ctx.aborted()) return figures;

  let sent = 0;
  const { phase: messages } = await loadPhase(ctx, {
    name: `${label} message`,
    description: 'POST /api/v1/matches/{id}/messages, each client one side of a match',
    label: `${label}: message`,
    connections: plan.chats.length,
    client: (i) => {
      const { sender, matchId } = plan.chats[i % plan.chats.length]!;
      const headers = { ...bearer(sender.token), 'Content-Type': 'application/json' };
      return {
        localAddress: ctx.addresses.next(),
        next: () => ({
          method: 'POST',
          path: `/api/v1/matches/${matchId}/messages`,
          headers,
          body: JSON.stringify({ body: `compare message ${++sent}` }),
          tag: 'POST message',
        }),
      };
    },
  });
  add('message', messages, 'POST message');
  if (ctx.aborted()) return figures;

  const { phase: feed } = await loadPhase(ctx, {
    name: `${label} feed`,
    description: `GET ${FEED}?limit=20 by the passing agents`,
    label: `${label}: feed`,
    connections: ctx.options.connections,
    client: (i) => {
      const request = { method: 'GET', path: `${FEED}?limit=20`, headers: bearer(plan.readers[i % plan.readers.length]!.token), tag: 'GET feed' };
      return { localAddress: ctx.addresses.next(), next: () => request };
    },
  });
  add('feed', feed, 'GET feed');
  if (ctx.aborted()) return figures;

  const rate = pushRateOf(figures.pass_req_s ?? 0);
  if (rate > 0) {
    figures.push_background_req_s = rate;
    add('push', await pushPhase(ctx, plan.push, label, rate), 'push message.created');
  }
  return figures;
}

/** Throughput, p50, p99, failures and the server's CPU per request of one phase's operation. */
export function phaseFigures(key: string, phase: PhaseResult, tag: string): Record<string, number> {
  const stats = phase.operations[tag];
  if (!stats) return {};
  const figures: Record<string, number> = {
    [`${key}_req_s`]: stats.throughput,
    [`${key}_p50_ms`]: stats.latency.p50,
    [`${key}_p99_ms`]: stats.latency.p99,
  };
  const window = phase.window;
  // CPU per request holds up better than wall-clock figures when other work shares the cores.
  if (window?.cpu.server !== undefined && stats.count > 0) figures[`${key}_server_cpu_us`] = ((window.cpu.server / 100) * window.seconds * 1e6) / stats.count;
  figures[`${key}_failures`] = Object.entries(stats.outcomes).reduce((n, [outcome, count]) => (isSuccess(outcome) ? n : n + count), 0);
  return figures;
}
