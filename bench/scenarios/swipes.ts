import { keys } from '../../src/platform/redis/keys.js';
import { runLoad, type ClientScript, type LoadRequest } from '../lib/http-load.js';
import { measureMessageCosts, type BenchMatch } from '../lib/message-costs.js';
import { perCore, redisInfo } from '../lib/monitor.js';
import { formatPercent } from '../lib/format.js';
import { bearer, loadPhase, sleep, wrkCpuLine, wrkPhase } from '../lib/phase.js';
import type { BenchAgent } from '../lib/population.js';
import { prng, shuffle } from '../lib/profiles.js';
import { failureSummary } from '../lib/report.js';
import { emptyResult, type BenchContext, type PhaseResult, type Scenario, type WrkCeiling } from '../lib/types.js';
import type { WrkKind, WrkScript } from '../lib/wrk-script.js';

const LIKES = '/api/v1/likes/{user_id}';

/**
 * Swipe throughput: authenticated POST /likes from many keep-alive clients, each agent swiping through
 * everyone else (then again: the latest swipe replaces the earlier one): first passes only (the hot path,
 * one script, never a match), then 50% like, 45% pass, 5% super_like, so that matches form along the way. With
 * wrk on PATH, each phase again from wrk with agents of its own, then likes only from wrk (a third group, first
 * likes on their targets), and the uWS route too. Then Redis memory per
 * stored swipe and per match, from INFO memory before and after a known number of each, on a separate group of agents.
 */
export const swipesScenario: Scenario = {
  name: 'swipes',
  title: 'Swipes (POST /likes) and Redis memory per swipe and per match',
  summary: 'authenticated POST /likes/{id}?kind=… from many keep-alive clients; Redis bytes per swipe and per match',
  async run(ctx) {
    const result = emptyResult(this);
    if (!ctx.hasRoute('POST', LIKES)) return { ...result, skipped: `POST ${LIKES} is not served by the target` };
    const agents = await ctx.population.take(ctx.options.agents, 'swipes');
    // wrk's swipers are agents of their own, so that its swipes are as new as the Node generator's.
    // Its likes come from a third group, so that they too are first swipes on their targets, as from a feed.
    const wrkFiles =
      'script' in ctx.wrk
        ? wrkAgentsFiles(
            ctx.wrk.script,
            await ctx.population.take(ctx.options.agents, 'the wrk swipes'),
            await ctx.population.take(ctx.options.agents, 'the wrk likes'),
          )
        : undefined;
    // The machine's load drifts (shared cores): the uWS route is measured again right before and after, and
    // each wrk phase runs right after the same phase of the Node generator.
    ctx.progress.info('the trivial uWS route again, next to the swipes…');
    const wrkHello = (agentsFile: string) =>
      ctx.helloWrkNow(3_000, agentsFile).catch((error: Error) => {
        result.notes.push(`wrk failed on the uWS route: ${error.message}`);
        return undefined;
      });
    const helloBefore = await ctx.helloNow(3_000);
    const wrkHelloBefore = wrkFiles ? await wrkHello(wrkFiles.pass) : undefined;
    const { phase: passes } = await loadPhase(ctx, {
      name: 'pass only',
      description: `POST /api/v1/likes/{id}?kind=pass by ${agents.length} agents, each through all the others: the hot path, never a match`,
      label: 'swipes: pass',
      connections: ctx.options.connections,
      client: (i) => ({ ...swiperScript(agents, i % agents.length, i >= agents.length, () => 'pass'), localAddress: ctx.addresses.next() }),
    });
    result.phases.push(passes);
    const wrkPasses = wrkFiles ? await tryWrk(ctx, result.notes, 'pass only (wrk)', 'pass', wrkFiles.pass) : undefined;
    if (wrkPasses) result.phases.push(wrkPasses);
    const matches = new Set<number>();
    const { phase } = await loadPhase(ctx, {
      name: 'mixed',
      description: `POST /api/v1/likes/{id}?kind=like|pass|super_like (50/45/5%) by the same agents, again through all the others, so matches form`,
      label: 'swipes: mixed',
      connections: ctx.options.connections,
      client: (i) => ({
        ...swiperScript(agents, i % agents.length, true, mixedKind),
        localAddress: ctx.addresses.next(),
        onResponse: (_request, status, body) => {
          if (status !== 200 || !body.includes('"matched":true')) return;
          const id = (JSON.parse(body.toString()) as { match?: { id?: number } }).match?.id;
          if (id !== undefined) matches.add(id);
        },
      }),
    });
    result.phases.push(phase);
    const wrkMixed = wrkFiles ? await tryWrk(ctx, result.notes, 'mixed (wrk)', 'mixed', wrkFiles.mixed) : undefined;
    if (wrkMixed) result.phases.push(wrkMixed);
    const wrkLikes = wrkFiles ? await tryWrk(ctx, result.notes, 'like only (wrk)', 'like', wrkFiles.like) : undefined;
    if (wrkLikes) result.phases.push(wrkLikes);
    const helloAfter = await ctx.helloNow(3_000);
    const wrkHelloAfter = wrkFiles ? await wrkHello(wrkFiles.pass) : undefined;
    const adjacent = (helloBefore + helloAfter) / 2;
    const nodePass = passes.operations['POST like'];
    result.figures.uws_hello_adjacent_req_s = `${Math.round(helloBefore)} before, ${Math.round(helloAfter)} after`;
    result.figures.pass_throughput_vs_uws = (nodePass?.throughput ?? 0) / adjacent;
    const passPerCore = perCore(nodePass?.throughput, passes.window);
    if (passPerCore !== undefined) result.figures.pass_swipes_per_core = passPerCore;
    const wrkPassPerCore = perCore(wrkPasses?.operations['POST like']?.throughput, wrkPasses?.window);
    if (wrkPassPerCore !== undefined) result.figures.wrk_pass_swipes_per_core = wrkPassPerCore;
    result.figures.mixed_throughput_vs_uws = (phase.operations['POST like']?.throughput ?? 0) / adjacent;
    result.figures.matches_seen = matches.size;
    result.notes.push(
      '*_swipes_per_core: pass swipes per second per core that every service process and every Redis node used over the phase (their CPU seconds over its seconds): what a core buys, whatever else shares the machine; on a Redis Cluster it counts the service processes and masters of the cluster.',
    );
    result.notes.push(
      "Aims: pass swipes at least 0.25 × the trivial uWS route under wrk, likes at least 0.2 ×. The *_throughput_vs_uws figures divide by the uWS route measured right before and after the swipes (the mean of the two); the table's × uWS column divides by the run's opening ceiling.",
    );
    const capacities: Array<{ reqPerSecond: number; source: string }> = [];
    if (nodePass && nodePass.count > 0 && failureSummary(nodePass.outcomes) === '0')
      capacities.push({ reqPerSecond: nodePass.throughput, source: 'the Node generator' });

    if (wrkFiles && wrkHelloBefore && wrkHelloAfter) {
      Object.assign(result.figures, wrkFigures(wrkHelloBefore, wrkHelloAfter, { pass: wrkPasses, mixed: wrkMixed, like: wrkLikes }, nodePass?.throughput));
      result.figures.uws_hello_wrk_vs_node = (wrkHelloBefore.throughput + wrkHelloAfter.throughput) / 2 / adjacent;
      const wrkPass = wrkPasses?.operations['POST like'];
      if (wrkPass && wrkPass.count > 0 && failureSummary(wrkPass.outcomes) === '0') capacities.push({ reqPerSecond: wrkPass.throughput, source: 'wrk' });
      result.notes.push(
        `wrk (${ctx.options.wrkThreads} thread(s), ${ctx.options.wrkConnections} connections) sends the same swipes from a C process with one Lua request script, ` +
          'for the uWS route and the service alike: its own agents, each through all the others in its own shuffled order, agents taking turns request by request. ' +
          'wrk_*_vs_uws divide by the uWS route loaded by wrk right before and after. If the Node generator limited the swipes, wrk would swipe clearly faster ' +
          "(pass_throughput_wrk_vs_node well above 1); if it limits the uWS route (uws_hello_wrk_vs_node well above 1), the Node generator's *_vs_uws ratios overstate the swipe's share of the ceiling and the wrk ratios are the ones to quote. " +
          'The CPU column (srv/redis/gen/machine; gen = wrk on the wrk rows) shows who is saturated; machine near 100 × cores with the others well below means other work took the cores. ' +
          'wrk counts every status of 400 or more as an error, without telling which.',
      );
    } else if (!('script' in ctx.wrk)) {
      result.notes.push(`wrk was not used (${ctx.wrk.missing}): the figures come from the Node generator only; its CPU is the gen part of the CPU column.`);
    }
    const capacity = capacities.sort((a, b) => b.reqPerSecond - a.reqPerSecond)[0];
    if (capacity) ctx.facts.passSwipeCapacity = capacity;

    if (!ctx.redis) {
      result.notes.push(
        ctx.target.kind === 'cluster'
          ? 'Redis memory per swipe and per match not measured on the cluster (used_memory of each master is reported after the run).'
          : 'Redis memory per swipe and per match not measured: the target Redis is unknown (pass --redis-url).',
      );
      return result;
    }
    if (ctx.aborted()) return result;
    Object.assign(result.figures, await measureMemory(ctx));
    result.notes.push(
      'Memory figures: Redis used_memory less client and AOF buffers, before and after a known number of swipes (all "pass", so no matches) and then of matches ' +
        "(each pair liking both ways after having passed; includes the match, its indexes and its match.created events in both users' and the spectator stream). " +
        "A swipe also removes its target from the swiper's feed, so the per-swipe figure is net of that. " +
        'Then 20 messages of 120 characters over each of those matches: bytes per message (thread entry, its entry ids kept with the match, three events) and redis-server CPU time per message (INFO cpu).',
    );
    return result;
  },
};

const mixedKind = (random: () => number) => {
  const roll = random();
  return roll < 0.5 ? 'like' : roll < 0.95 ? 'pass' : 'super_like';
};

/** Every other agent's id in agent `a`'s own shuffled order (another order for a later round, `again`), and the generator it continues. */
function swipeOrder(agents: BenchAgent[], a: number, again: boolean): { order: number[]; random: () => number } {
  const random = prng(agents[a]!.id * 31 + (again ? 7 : 0));
  const order = shuffle(
    agents.filter((_, j) => j !== a).map((agent) => agent.id),
    random,
  );
  return { order, random };
}

/** Agent `a` swipes every other agent once, in its own shuffled order; `again` marks a later round. */
function swiperScript(agents: BenchAgent[], a: number, again: boolean, kindOf: (random: () => number) => string): ClientScript {
  const me = agents[a]!;
  const { order, random } = swipeOrder(agents, a, again);
  const headers = bearer(me.token);
  let k = 0;
  return {
    next: (): LoadRequest | null => {
      if (k >= order.length) return null;
      return { method: 'POST', path: `/api/v1/likes/${order[k++]}?kind=${kindOf(random)}`, headers, tag: 'POST like' };
    },
  };
}

/**
 * wrk's agents files: the pass phase walks the first round of every agent's order, the mixed phase the
 * second. The like phase takes another group: its first half likes its second half, each liker in its own
 * shuffled order, and the liked never swipe, so that no like completes a match (the mixed phase has those).
 */
function wrkAgentsFiles(script: WrkScript, agents: BenchAgent[], likeGroup: BenchAgent[]): Record<WrkKind, string> {
  const round = (group: BenchAgent[], again: boolean) => group.map((agent, a) => ({ token: agent.token, targets: swipeOrder(group, a, again).order }));
  const half = Math.ceil(likeGroup.length / 2);
  const liked = likeGroup.slice(half);
  const likers = likeGroup.slice(0, half).map((agent) => ({
    token: agent.token,
    targets: shuffle(
      liked.map((target) => target.id),
      prng(agent.id * 31 + 13),
    ),
  }));
  return { pass: script.writeAgents(round(agents, false)), mixed: script.writeAgents(round(agents, true)), like: script.writeAgents(likers) };
}

/** What each wrk phase sends, as its phase's description. */
const WRK_PHASES: Record<WrkKind, string> = {
  pass: 'the pass-only swipes again, sent by wrk for agents of its own: POST /api/v1/likes/{id}?kind=pass',
  mixed: 'the mixed swipes again (50/45/5% like/pass/super_like), sent by wrk for its agents, a second round through all the others',
  like: 'likes only, sent by wrk for half a group of agents of their own, each through the other half, who never swipe: likes that make no match',
};

/** A wrk phase; a failure of wrk itself becomes a note, and the Node generator's figures stand alone. */
async function tryWrk(ctx: BenchContext, notes: string[], name: string, kind: WrkKind, agentsFile: string): Promise<PhaseResult | undefined> {
  if (ctx.aborted()) return undefined;
  const description = WRK_PHASES[kind];
  try {
    return (await wrkPhase(ctx, { name, description, tag: 'POST like', agentsFile, kind })).phase;
  } catch (error) {
    notes.push(`The wrk phase "${name}" failed: ${(error as Error).message}`);
    return undefined;
  }
}

/** The wrk figures: throughput, latency, failures and CPU of each wrk phase, and its ratios to the uWS route under wrk. */
function wrkFigures(
  before: WrkCeiling,
  after: WrkCeiling,
  phases: Record<WrkKind, PhaseResult | undefined>,
  nodePass: number | undefined,
): Record<string, number | string> {
  const adjacent = (before.throughput + after.throughput) / 2;
  const figures: Record<string, number | string> = {
    wrk_uws_hello_adjacent_req_s: `${Math.round(before.throughput)} before, ${Math.round(after.throughput)} after`,
    wrk_uws_hello_cpu: `uWS ${formatPercent(before.cpu.server)}, wrk ${formatPercent(before.cpu.wrk)}, machine ${formatPercent(before.cpu.machine)} (before); uWS ${formatPercent(after.cpu.server)}, wrk ${formatPercent(after.cpu.wrk)}, machine ${formatPercent(after.cpu.machine)} (after)`,
  };
  for (const [key, phase] of Object.entries(phases)) {
    const stats = phase?.operations['POST like'];
    if (!phase || !stats) continue;
    figures[`wrk_${key}_req_s`] = stats.throughput;
    figures[`wrk_${key}_p50_ms`] = stats.latency.p50;
    figures[`wrk_${key}_p99_ms`] = stats.latency.p99;
    figures[`wrk_${key}_errors`] = failureSummary(stats.outcomes);
    figures[`wrk_${key}_throughput_vs_uws`] = stats.throughput / adjacent;
    figures[`wrk_${key}_cpu`] = wrkCpuLine(phase);
  }
  const wrkPass = phases.pass?.operations['POST like']?.throughput;
  if (wrkPass !== undefined && nodePass) figures.pass_throughput_wrk_vs_node = wrkPass / nodePass;
  return figures;
}

/** Bytes Redis holds for data: used_memory less client and AOF buffers. */
async function storedBytes(ctx: BenchContext): Promise<number> {
  const info = await redisInfo(ctx.redis, 'memory');
  return (info.used_memory ?? 0) - (info.mem_clients_normal ?? 0) - (info.mem_clients_slaves ?? 0) - (info.mem_aof_buffer ?? 0);
}

/** Waits until Redis memory stops moving (background ranking jobs done), at most 10 s. */
async function settledBytes(ctx: BenchContext): Promise<number> {
  let last = await storedBytes(ctx);
  const started = performance.now();
  while (performance.now() - started < 10_000) {
    await sleep(700);
    const now = await storedBytes(ctx);
    if (Math.abs(now - last) < 4096) return now;
    last = now;
  }
  return last;
}

async function measureMemory(ctx: BenchContext): Promise<Record<string, number | string>> {
  const size = Math.min(120, Math.max(20, ctx.options.agents));
  const group = await ctx.population.take(size, 'the memory measurement');
  ctx.progress.info(`memory: ${size} agents pass on each other (${size * (size - 1)} swipes), then ${size * 5} pairs match…`);
  const before = await settledBytes(ctx);

  const passes = await swipeAll(ctx, group, (a) => group.filter((b) => b !== a).map((b) => [a, b, 'pass']));
  const afterSwipes = await settledBytes(ctx);

  let swipeHashBytes = 0;
  let swipeEntries = 0;
  for (const agent of group) {
    const key = keys.swipes('agent', agent.id);
    const [usage, length] = await Promise.all([ctx.redis!.memory('USAGE', key, 'SAMPLES', 0), ctx.redis!.hlen(key)]);
    swipeHashBytes += Number(usage ?? 0);
    swipeEntries += length;
  }

  // Pairs (i, i+k) for k = 1..5: distinct unordered pairs, each agent in ten of them.
  const pairs: Array<[BenchAgent, BenchAgent]> = [];
  for (let i = 0; i < size; i++) for (let k = 1; k <= 5; k++) pairs.push([group[i]!, group[(i + k) % size]!]);
  await swipeAll(ctx, group, (a) => pairs.filter(([x]) => x === a).map(([x, y]) => [x, y, 'like']));
  const completing = await swipeAll(ctx, group, (a) => pairs.filter(([, y]) => y === a).map(([x, y]) => [y, x, 'like']));
  const afterMatches = await settledBytes(ctx);
  const messages = await measureMessageCosts(ctx, completing.matches, settledBytes);

  return {
    memory_swipes_stored: passes.ok,
    redis_bytes_per_swipe_net: passes.ok > 0 ? (afterSwipes - before) / passes.ok : 'n/a',
    swipes_hash_bytes_per_entry: swipeEntries > 0 ? swipeHashBytes / swipeEntries : 'n/a',
    memory_matches_created: completing.matched,
    redis_bytes_per_match: completing.matched > 0 ? (afterMatches - afterSwipes) / completing.matched : 'n/a',
    ...messages,
  };
}

/** Sends every swipe `plan` gives each agent, 32 at a time; counts 200s and matches. */
async function swipeAll(ctx: BenchContext, group: BenchAgent[], plan: (agent: BenchAgent) => Array<[BenchAgent, BenchAgent, string]>) {
  const lists = group.map(plan).filter((list) => list.length > 0);
  const total = lists.reduce((n, list) => n + list.length, 0);
  let ok = 0;
  let matched = 0;
  const matches: BenchMatch[] = [];
  let index = 0;
  const recorder = await runLoad({
    host: ctx.target.host,
    port: ctx.target.port,
    ports: ctx.target.ports,
    connections: 32,
    durationMs: 120_000,
    maxRequests: total,
    client: () => {
      const list = lists[index++];
      if (!list) return null;
      let k = 0;
      return {
        localAddress: ctx.addresses.next(),
        next: () => {
          const swipe = list[k++];
          if (!swipe) return null;
          const [from, to, kind] = swipe;
          return { method: 'POST', path: `/api/v1/likes/${to.id}?kind=${kind}`, headers: bearer(from.token), tag: 'POST like' };
        },
        onResponse: (request, status, body) => {
          if (status !== 200) return;
          ok++;
          if (!body.includes('"matched":true')) return;
          matched++;
          const swipe = list.find(([, to]) => request.path.startsWith(`/api/v1/likes/${to.id}?`));
          const match = (JSON.parse(body.toString()) as { match?: { id?: number | string } }).match;
          if (swipe && match?.id !== undefined) matches.push({ a: swipe[0], b: swipe[1], matchId: String(match.id) });
        },
      };
    },
  });
  if (ok < total) ctx.progress.info(`memory: ${total - ok} of ${total} swipes failed (${JSON.stringify(recorder.stats('POST like').outcomes)})`);
  return { ok, matched, matches };
}
