import type { RedisClient } from './redis.js';
import type { Pool } from '../domain/pool.js';
import { discoveryEntries, setsOfCard } from './discovery-index.js';
import { indexPartition } from './key-space.js';
import { keys } from './keys.js';
import type { ProfileCard } from './profile-cards.js';
import type { Scripts } from './scripts.js';

export const ACCOUNT_INDEXED = 'account.indexed';

/**
 * The follow-up of an account write (lua/create_user.lua, lua/update_profile.lua): everything its index
 * partition needs to hold the account at `version`: the card, the index sets it is in, its birthdate
 * and creation time. The sets it leaves are those of the card the partition holds when it is applied.
 */
export type AccountIndexedEffect = {
  type: typeof ACCOUNT_INDEXED;
  id: number;
  version: number;
  createdMs: number;
  card: string;
  birth: number;
  sets: string[];
};

/** How often an effect is retried while the partition's card keeps changing under it. */
const MAX_ATTEMPTS = 20;

export function accountIndexedEffect(pool: Pool, id: number, version: number, profile: ProfileCard): AccountIndexedEffect {
  const entries = discoveryEntries(pool, id, profile);
  return { type: ACCOUNT_INDEXED, id, version, createdMs: Date.parse(profile.createdAt), card: entries.card, birth: entries.birth, sets: entries.sets };
}

/** Applies accounts' index entries in their partitions (lua/index_account.lua), idempotently. */
export class AccountIndex {
  constructor(private readonly redis: RedisClient, private readonly scripts: Scripts) {}

  /** True when applied now, false when the partition already held this version or a newer one. */
  async apply(pool: Pool, effect: AccountIndexedEffect): Promise<boolean> {
    const part = indexPartition(effect.id);
    const id = String(effect.id);
    // A new account (version 0) has no entries to leave: no read first, unless the partition disagrees.
    if (effect.version === 0) {
      const applied = await this.run(pool, part, effect, [], '');
      if (applied !== -1) return applied === 1;
    }
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const [versionReply, cardReply] = (await this.redis.pipeline().hget(keys.indexedVersions(pool, part), id).hget(keys.profileCards(pool, part), id).exec()) ?? [];
      if (!versionReply || !cardReply || versionReply[0] || cardReply[0]) throw versionReply?.[0] ?? cardReply?.[0] ?? new Error('index read was aborted');
      const held = versionReply[1] as string | null;
      if (held !== null && Number(held) >= effect.version) return false;
      const before = (cardReply[1] as string | null) ?? '';
      const leaving = setsOfCard(pool, effect.id, before).filter((key) => !effect.sets.includes(key));
      const applied = await this.run(pool, part, effect, leaving, before);
      if (applied !== -1) return applied === 1;
    }
    throw new Error(`the index entries of account ${id} kept changing; left for the outbox sweeper`);
  }

  /** lua/index_account.lua: 1 applied, 0 already held at this version or newer, -1 the card is no longer `before`. */
  private run(pool: Pool, part: number, effect: AccountIndexedEffect, leaving: readonly string[], before: string): Promise<number> {
    return this.scripts.run<number>(
      'index_account',
      [keys.indexedVersions(pool, part), keys.poolUsers(pool, part), keys.profileCards(pool, part), keys.birthIndex(pool, part), ...leaving, ...effect.sets],
      [effect.id, effect.version, effect.createdMs, effect.card, effect.birth, leaving.length, before],
    );
  }
}
