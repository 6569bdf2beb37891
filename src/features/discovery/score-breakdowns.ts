import type { Pool } from '../../platform/core/pool.js';
import { GENDERS, type ProfileSource } from '../accounts/index.js';
import { interestMass, interestWeight, scoreBreakdown, sharedScore, type ScoreBreakdown } from './discovery-scoring.js';
import type { DiscoveryIndex } from './discovery-index-repository.js';
import type { RankTraits } from './rank-traits-repository.js';
import { pairInputs, sideOf, type Side } from './reciprocal-scorer.js';
import { birthdateNumber } from './browse-schemas.js';
import { RANK_STEP } from './feed-repository.js';
import { ReadCache } from '../../platform/core/read-cache.js';

export type ExplainedEntry = { card: ProfileSource; shared: readonly string[] };

/**
 * Interest weights drift only as the pool changes: each interest's weight (an SCARD per partition, and
 * the pool's size) is read once a minute at most by this process, whoever's feed page needs it.
 */
const WEIGHTS_KEPT_MS = 60_000;
const weightReads = new ReadCache(WEIGHTS_KEPT_MS, 10_000);

async function weightsOf(index: DiscoveryIndex, pool: Pool, interests: readonly string[]): Promise<Map<string, number>> {
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
 * The parts of each entry's score as of now (discovery-scoring.ts), for a page of the viewer's feed: the
 * weights of the viewer's interests (as a ranking reads them, shared for a minute: weightReads), the
 * traits of the viewer and the page's accounts (one HMGET per partition), and which of them liked the viewer
 * (one ZMSCORE). Gender and age come from the cards the page already holds.
 */
export async function explainScores(
  index: DiscoveryIndex,
  traits: RankTraits,
  pool: Pool,
  viewer: ProfileSource,
  entries: readonly ExplainedEntry[],
): Promise<ScoreBreakdown[]> {
  if (entries.length === 0) return [];
  const ids = entries.map((entry) => entry.card.id);
  const [weights, known, likers] = await Promise.all([
    weightsOf(index, pool, viewer.interests),
    traits.read(pool, [viewer.id, ...ids].map(String), RANK_STEP),
    traits.likedBy(pool, viewer.id, ids),
  ]);
  const now = new Date();
  const side = (card: ProfileSource, mass?: number): Side =>
    sideOf(known.get(String(card.id)), now, {
      mass: mass ?? known.get(String(card.id))?.mass ?? 0,
      gender: GENDERS.indexOf(card.gender),
      birth: birthdateNumber(card.birthdate),
    });
  const me = side(viewer, interestMass([...weights.values()]));
  return entries.map(({ card, shared }) => {
    const other = side(card);
    if (!other.mass) other.mass = me.mass;
    const sum = sharedScore(shared, (interest) => weights.get(interest) ?? 0);
    return scoreBreakdown(pairInputs(me, other, sum, likers.has(card.id), now.getTime()));
  });
}
