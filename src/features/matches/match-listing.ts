import { z } from 'zod';
import type { Pool } from '../../platform/core/pool.js';
import type { EffectHandler, EffectStep } from '../../platform/outbox/effect-handlers.js';
import type { MatchListRepository } from './match-list-repository.js';

const id = z.number().int().nonnegative();
const users = z.tuple([id, id]);

/** The list effects the commit scripts write, by type. */
const LIST_EFFECTS = {
  'match.listed': z.object({ type: z.literal('match.listed'), match_id: id, users, at: z.number() }),
  'match.touched': z.object({ type: z.literal('match.touched'), match_id: id, users, at: z.number() }),
  'match.unlisted': z.object({ type: z.literal('match.unlisted'), match_id: id, users }),
};

type ListEffect = z.output<(typeof LIST_EFFECTS)[keyof typeof LIST_EFFECTS]>;

/** The outbox steps that lua/record_swipe-5.lua, append_message-7.lua and end_match-7.lua leave in their records. */
export class MatchListing implements EffectHandler {
  readonly types = Object.keys(LIST_EFFECTS);
  readonly schemas = LIST_EFFECTS;

  constructor(private readonly store: MatchListRepository) {}

  async apply(pool: Pool, steps: readonly EffectStep[]): Promise<void> {
    await Promise.all(steps.map(({ effect }) => this.step(pool, effect as ListEffect)));
  }

  private step(pool: Pool, step: ListEffect): Promise<void> {
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
