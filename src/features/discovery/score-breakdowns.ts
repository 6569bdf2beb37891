import type { Pool } from '../../platform/core/pool.js';
import { GENDERS } from '../accounts/index.js';
import { interestMass, interestWeight, scoreBreakdown, sharedScore, type ScoreBreakdown } from './discovery-scoring.js';
import type { DiscoveryIndexRepository } from './discovery-index-repository.js';
import { pairInputs, sideOf, type Side } from './reciprocal-scorer.js';
import { birthdateNumber } from './browse-schemas.js';
import type { FeedCard } from './feed-repository.js';
import { ReadCache } from '../../platform/core/read-cache.js';

export type ExplainedEntry = { entry: FeedCard; shared: readonly string[]; likedYou: boolean };

/**
 * Interest weights drift only as the pool changes: each interest's weight (an SCARD per partition, and
 * the pool's size) is read once a minute at most by this process, whoever's feed page needs it.
 */
const WEIGHTS_KEPT_MS = 60_000;
const weightReads = new ReadCache(WEIGHTS_KEPT_MS, 10_000);

/** The weights of the viewer's interests, as a ranking reads them (shared for a minute: weightReads). */
export async function interestWeights(index: DiscoveryIndexRepository, pool: Pool, interests: readonly string[]): Promise<Map<string, number>> {
  const weights = await Promise.all(
    interests.map((interest) =>
      weightReads.get(`${pool}:${interest}`, async () => {
        const { poolSize, counts } = await index.holderCounts(pool, [interest]);
        return interestWeight(poolSize, counts[0] ?? 0);
      }),
    ),
  );
  return new Map(interests.map((interest, i) => [interest, weights[i]!]));
}

/**
 * The parts of each entry's score as of now (discovery-scoring.ts), for a page of the viewer's feed, from
 * what the page's reads brought: the weights of the viewer's interests (interestWeights), the traits of the
 * viewer and of the page's accounts, and whether each liked the viewer. Gender and age come from the cards.
 */
export function explainScores(weights: ReadonlyMap<string, number>, viewer: FeedCard, entries: readonly ExplainedEntry[], now = new Date()): ScoreBreakdown[] {
  const side = ({ card, traits }: FeedCard, mass?: number): Side =>
    sideOf(traits, now, {
      mass: mass ?? traits.mass ?? 0,
      gender: GENDERS.indexOf(card.gender),
      birth: birthdateNumber(card.birthdate),
    });
  const me = side(viewer, interestMass([...weights.values()]));
  return entries.map(({ entry, shared, likedYou }) => {
    const other = side(entry);
    if (!other.mass) other.mass = me.mass;
    const sum = sharedScore(shared, (interest) => weights.get(interest) ?? 0);
    return scoreBreakdown(pairInputs(me, other, sum, likedYou, now.getTime()));
  });
}
