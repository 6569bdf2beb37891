import { encodeAccount } from '../../src/features/accounts/profile-cards.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';
import type { RedisClient } from '../../src/platform/redis/redis.js';

/**
 * Agents written straight into the accounts hash, one per id, named `name` (e-mail `<name>-<id>@test.example`,
 * lower case): no interests and no discovery entries, for the store tests that need an account to exist.
 */
export async function storeAgents(redis: RedisClient, ids: readonly number[], name: string): Promise<void> {
  const createdAt = new Date().toISOString();
  for (const id of ids) {
    const card = { displayName: name, birthdate: '1990-01-01', gender: 'other', bio: '', interests: [], city: '', state: '', themeId: 1, createdAt } as const;
    await redis.hset(
      keys.accounts('agent', indexPartition(id)),
      String(id),
      encodeAccount({ ...card, interests: [] }, { email: `${name.toLowerCase()}-${id}@test.example`, passwordHash: 'x' }),
    );
  }
}
