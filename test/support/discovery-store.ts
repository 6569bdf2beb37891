import { AccountReadsRepository } from '../../src/features/accounts/account-reads-repository.js';
import { UserRepository } from '../../src/features/accounts/user-repository.js';
import { DiscoveryIndexRepository, accountFiling } from '../../src/features/discovery/discovery-index-repository.js';
import { FeedRepository } from '../../src/features/discovery/feed-repository.js';
import { startStore } from './stack.js';

export type DiscoveryStore = Awaited<ReturnType<typeof startDiscoveryStore>>;

/** A store (startStore) with the discovery index, the feeds and the accounts on it, and `seed` to fill it. */
export async function startDiscoveryStore() {
  const store = await startStore();
  const { redis, scripts } = store;
  const users = new UserRepository(redis, scripts, accountFiling);
  return {
    ...store,
    index: new DiscoveryIndexRepository(redis, scripts, new AccountReadsRepository(redis, scripts)),
    feeds: new FeedRepository(redis, scripts),
    users,
    /** Stores an agent holding `interests` (registration indexes it); its id. */
    seed: async (interests: string[]): Promise<number> =>
      (await users.create({
        pool: 'agent',
        email: `seed-${Math.random()}@example.com`,
        passwordHash: 'seeded',
        displayName: 'Someone',
        birthdate: '1990-01-01',
        gender: 'woman',
        bio: '',
        interests,
        city: '',
        state: '',
        themeId: 1,
      }))!.id,
  };
}
