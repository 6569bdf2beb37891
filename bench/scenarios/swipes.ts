import { keys } from '../../src/store/keys.js';
import { runLoad, type ClientScript, type LoadRequest } from '../lib/http-load.js';
import { measureMessageCosts, type BenchMatch } from '../lib/message-costs.js';
import { redisInfo } from '../lib/monitor.js';
import { bearer, loadPhase, sleep } from '../lib/phase.js';
import type { BenchAgent } from '../lib/population.js';
import { prng } from '../lib/profiles.js';
import { emptyResult, type BenchContext, type Scenario } from '../lib/types.js';

const LIKES = '/api/v1/likes/{user_id}';

/**
 * Swipe throughput: authenticated POST /likes from many keep-alive clients, each agent swiping through
 * everyone else (then again: the latest swipe replaces the earlier one): first passes only (the hot path,
 * one script, never a match), then 50% like, 45% pass, 5% super_like, so that matches form along the way. Then Redis memory per stored swipe and per match,
 * from INFO memory before and after a known number of each, on a separate group of agents.
 */
export const swipesScenario: Scenario = {
  name: 'swipes',
  title: 'Swipes (POST /likes) and Redis memory per swipe and per match',
  summary: 'authenticated POST /likes/{id}?kind=… from many keep-alive clients; Redis bytes per swipe and per match',
  async run(ctx) {
    const result = emptyResult(this);
    if (!ctx.hasRoute('POST', LIKES)) return { ...result, skipped: `POST ${LIKES} is not served by the target` };
    const agents = await ctx.population.take(ctx.options.agents, 'swipes');
    // The machine's load drifts (shared cores): the uWS route is measured again right before and after.
    ctx.progress.info('the trivial uWS route again, next to the swipes…');
    const helloBefore = await ctx.helloNow(3_000);
    const { phase: passes } = await loadPhase(ctx, {
      name: 'pass only',
      description: `POST /api/v1/likes/{id}?kind=pass by ${agents.length} agents, each through all the others: the hot path, never a match`,
      label: 'swipes: pass',
      connections: ctx.options.connections,
      client: (i) => ({ ...swiperScript(agents, i % agents.length, i >= agents.length, () => 'pass'), localAddress: ctx.addresses.next() }),
    });
    result.phases.push(passes);
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
    const helloAfter = await ctx.helloNow(3_000);
    const adjacent = (helloBefore + helloAfter) / 2;
    result.figures.uws_hello_adjacent_req_s = `${Math.round(helloBefore)} before, ${Math.round(helloAfter)} after`;
    result.figures.pass_throughput_vs_uws = (passes.operations['POST like']?.throughput ?? 0) / adjacent;
    result.figures.mixed_throughput_vs_uws = (phase.operations['POST like']?.throughput ?? 0) / adjacent;
    result.figures.matches_seen = matches.size;
    result.notes.push(
      'Aim for the swipe: at least 0.4 × the trivial uWS route. The *_throughput_vs_uws figures divide by the uWS route measured right before and after the swipes (the mean of the two); the table\'s × uWS column divides by the run\'s opening ceiling.',
    );

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
        '(each pair liking both ways after having passed; includes the match, its indexes and its match.created events in both users\' and the spectator stream). ' +
        'A swipe also removes its target from the swiper\'s feed, so the per-swipe figure is net of that. ' +
        'Then 20 messages of 120 characters over each of those matches: bytes per message (thread entry, its entry ids kept with the match, three events) and redis-server CPU time per message (INFO cpu).',
    );
    return result;
  },
};

const mixedKind = (random: () => number) => {
  const roll = random();
  return roll < 0.5 ? 'like' : roll < 0.95 ? 'pass' : 'super_like';
};

/** Agent `a` swipes every other agent once, in its own shuffled order; `again` marks a later round. */
function swiperScript(agents: BenchAgent[], a: number, again: boolean, kindOf: (random: () => number) => string): ClientScript {
  const me = agents[a]!;
  const random = prng(me.id * 31 + (again ? 7 : 0));
  const order = agents.filter((_, j) => j !== a).map((agent) => agent.id);
  for (let j = order.length - 1; j > 0; j--) {
    const k = Math.floor(random() * (j + 1));
    [order[j], order[k]] = [order[k]!, order[j]!];
  }
  const headers = bearer(me.token);
  let k = 0;
  return {
    next: (): LoadRequest | null => {
      if (k >= order.length) return null;
      return { method: 'POST', path: `/api/v1/likes/${order[k++]}?kind=${kindOf(random)}`, headers, tag: 'POST like' };
    },
  };
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
