import { MATCHING_DEFAULTS, runMatching } from '../matching/simulate.js';
import { emptyResult, type Scenario } from '../lib/types.js';

/**
 * Match quality (bench/matching/): a simulated population with hidden tastes swipes through feeds ranked
 * by each named ranking, in-process with the service's own scoring code. Runs with --scale-agents agents,
 * at most 10,000 here; `npm run bench:matching -- --agents N` runs it alone at any size.
 */
export const matchingScenario: Scenario = {
  name: 'matching',
  title: 'Match quality (simulated tastes, every ranking in the same run)',
  summary: 'simulated agents with hidden tastes swipe their ranked feeds: mutual likes in the top 10, swipes to a first match, likes Gini',
  // The context's service is not used: the feed is ranked in-process by the real scoring functions.
  async run(ctx) {
    const result = emptyResult(this);
    const agents = Math.min(ctx.options.scaleAgents, MATCHING_DEFAULTS.agents);
    const started = performance.now();
    const report = runMatching({ ...MATCHING_DEFAULTS, agents }, (line) => ctx.progress.info(line));
    result.notes.push(
      `${report.agents} agents, seed ${report.seed}, ${report.rounds} rounds of ${report.feedSize} swipes; ${report.concepts} hidden concepts written as ${report.interestStrings} interest strings; ranked in-process, not over HTTP`,
    );
    for (const r of report.rankings) {
      result.figures[`${r.ranking}_top${report.feedSize}_mutual_share`] = r.topMutualShare;
      result.figures[`${r.ranking}_swipes_to_first_match_p50`] = r.swipesToFirstMatch.median ?? '-';
      result.figures[`${r.ranking}_swipes_to_first_match_p90`] = r.swipesToFirstMatch.p90 ?? '-';
      result.figures[`${r.ranking}_agents_with_match_share`] = r.agentsWithMatchShare;
      result.figures[`${r.ranking}_likes_received_gini`] = r.likesReceivedGini;
      result.figures[`${r.ranking}_matches`] = r.matches;
    }
    result.seconds = (performance.now() - started) / 1000;
    return result;
  },
};
