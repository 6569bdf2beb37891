import type { Pool } from '../../platform/core/pool.js';
import type { MatchListRepository } from './match-list-repository.js';
import type { Effect, EffectHandler } from '../events/index.js';

type MatchListed = { type: 'match.listed' | 'match.touched'; match_id: number; users: [number, number]; at: number };
type MatchUnlisted = { type: 'match.unlisted'; match_id: number; users: [number, number] };

/** The outbox steps that lua/record_swipe-5.lua, append_message-7.lua and end_match-7.lua leave in their records. */
export class MatchListing implements EffectHandler {
  readonly types = ['match.listed', 'match.touched', 'match.unlisted'] as const;

  constructor(private readonly store: MatchListRepository) {}

  apply(pool: Pool, effect: Effect): Promise<void> {
    const step = effect as MatchListed | MatchUnlisted;
    switch (step.type) {
      case 'match.listed':
        return this.store.list(pool, step.match_id, step.users, 'add', step.at);
      case 'match.touched':
        return this.store.list(pool, step.match_id, step.users, 'touch', step.at);
      case 'match.unlisted':
        return this.store.close(pool, step.match_id, step.users);
    }
  }
}
