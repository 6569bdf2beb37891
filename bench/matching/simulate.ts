import { buildPopulation, genderIndex, likeChance, pairUniform, prng, type SimAgent } from './population.js';
import { emptyTaste, noteSwipe } from '../../src/features/discovery/swipe-taste.js';
import { RANKINGS, type Ranking, type RankingWorld } from './rankings.js';

export type MatchingOptions = {
  agents: number;
  seed: number;
  /** Rounds in which every agent, in a fresh random order, fetches its feed and swipes through it. */
  rounds: number;
  /** Entries swiped per fetch (the top of the feed). */
  feedSize: number;
  rankings?: readonly Ranking[];
};

export const MATCHING_DEFAULTS = { agents: 10_000, seed: 20_251_127, rounds: 10, feedSize: 10 } as const;

export type RankingReport = {
  ranking: string;
  shown: number;
  likes: number;
  matches: number;
  /** Of the entries shown in the top `feedSize` of a fetch, the share that end in a mutual like. */
  topMutualShare: number;
  /** An agent's own swipes until its first match, over the agents that matched. */
  swipesToFirstMatch: { median: number | null; p90: number | null };
  agentsWithMatchShare: number;
  /** Gini coefficient of likes received (0: even, 1: all to one agent). */
  likesReceivedGini: number;
  seconds: number;
};

export type MatchingReport = {
  agents: number;
  seed: number;
  rounds: number;
  feedSize: number;
  concepts: number;
  interestStrings: number;
  rankings: RankingReport[];
};

export function runMatching(options: MatchingOptions, log?: (line: string) => void): MatchingReport {
  const agents = buildPopulation(options.agents, options.seed);
  const holders = new Map<string, number[]>();
  for (const agent of agents) for (const interest of agent.interests) (holders.get(interest) ?? holders.set(interest, []).get(interest)!).push(agent.id);
  const concepts = new Set(agents.flatMap((a) => [...a.concepts])).size;
  const reports = (options.rankings ?? RANKINGS).map((ranking) => {
    const report = simulate(agents, holders, ranking, options);
    log?.(`${ranking.name}: ${report.matches} matches in ${report.seconds.toFixed(1)}s`);
    return report;
  });
  return {
    agents: agents.length,
    seed: options.seed,
    rounds: options.rounds,
    feedSize: options.feedSize,
    concepts,
    interestStrings: holders.size,
    rankings: reports,
  };
}

function simulate(agents: readonly SimAgent[], holders: ReadonlyMap<string, number[]>, ranking: Ranking, options: MatchingOptions): RankingReport {
  const started = performance.now();
  const n = agents.length;
  const swiped = agents.map(() => new Set<number>());
  const liked = agents.map(() => new Set<number>());
  const likedBy = agents.map(() => new Set<number>());
  const tastes = agents.map(() => emptyTaste());
  const world: RankingWorld = { agents, holders, swiped, likedBy, tastes };
  const swipes = new Array<number>(n).fill(0);
  const firstMatchAt = new Array<number>(n).fill(-1);
  const shown: [number, number][] = [];
  let likeCount = 0;
  let matches = 0;
  // The order of turns is the same for every ranking (its own PRNG), and each pair's decision is fixed by
  // pairUniform: rankings differ only in whom they show.
  const order = prng(options.seed + 1);
  const turn = agents.map((a) => a.id);
  for (let round = 0; round < options.rounds; round++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(order() * (i + 1));
      [turn[i], turn[j]] = [turn[j]!, turn[i]!];
    }
    for (const viewer of turn) {
      for (const candidate of ranking.feed(world, viewer, options.feedSize)) {
        shown.push([viewer, candidate]);
        swiped[viewer]!.add(candidate);
        swipes[viewer]!++;
        const likes = pairUniform(options.seed, viewer, candidate) < likeChance(agents[viewer]!, agents[candidate]!);
        noteSwipe(tastes[viewer]!, genderIndex(agents[candidate]!.gender), agents[candidate]!.age, likes);
        if (!likes) continue;
        likeCount++;
        liked[viewer]!.add(candidate);
        likedBy[candidate]!.add(viewer);
        if (!liked[candidate]!.has(viewer)) continue;
        matches++;
        if (firstMatchAt[viewer] === -1) firstMatchAt[viewer] = swipes[viewer]!;
        if (firstMatchAt[candidate] === -1) firstMatchAt[candidate] = swipes[candidate]!;
      }
    }
  }
  const mutual = shown.filter(([a, b]) => liked[a]!.has(b) && liked[b]!.has(a)).length;
  const toMatch = firstMatchAt.filter((s) => s >= 0).sort((a, b) => a - b);
  return {
    ranking: ranking.name,
    shown: shown.length,
    likes: likeCount,
    matches,
    topMutualShare: shown.length === 0 ? 0 : mutual / shown.length,
    swipesToFirstMatch: { median: quantile(toMatch, 0.5), p90: quantile(toMatch, 0.9) },
    agentsWithMatchShare: n === 0 ? 0 : toMatch.length / n,
    likesReceivedGini: gini(likedBy.map((s) => s.size)),
    seconds: (performance.now() - started) / 1000,
  };
}

/** The nearest-rank quantile of sorted values, or null when there are none. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The Gini coefficient of non-negative values (0 when they are all zero). */
export function gini(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  if (sorted.length === 0 || sum === 0) return 0;
  let weighted = 0;
  sorted.forEach((v, i) => (weighted += (i + 1) * v));
  return (2 * weighted) / (sorted.length * sum) - (sorted.length + 1) / sorted.length;
}

/** The report as a plain table, one row per ranking. */
export function matchingTable(report: MatchingReport): string {
  const head = ['ranking', `top-${report.feedSize} mutual`, 'swipes to 1st match p50', 'p90', 'agents matched', 'likes Gini', 'matches', 'seconds'];
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const rows = report.rankings.map((r) => [
    r.ranking,
    pct(r.topMutualShare),
    String(r.swipesToFirstMatch.median ?? '-'),
    String(r.swipesToFirstMatch.p90 ?? '-'),
    pct(r.agentsWithMatchShare),
    r.likesReceivedGini.toFixed(3),
    String(r.matches),
    r.seconds.toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [
    `matching: ${report.agents} agents, seed ${report.seed}, ${report.rounds} rounds of ${report.feedSize} swipes, ${report.concepts} hidden concepts written as ${report.interestStrings} interest strings`,
    line(head),
    ...rows.map(line),
  ].join('\n');
}
