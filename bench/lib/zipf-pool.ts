import type { Application } from '../../src/app.js';
import { GENDERS } from '../../src/features/accounts/account-schemas.js';
import { createLogger } from '../../src/platform/logger.js';
import { DiscoveryIndexer } from '../../src/features/discovery/discovery-indexer.js';
import { zipf } from './profiles.js';

export type ZipfPoolOptions = {
  agents: number;
  /** Distinct interests, ranked by popularity (Zipf, s = 1). */
  interests: number;
  random: () => number;
  log?: (line: string) => void;
};

export const interestName = (rank: number) => `interest-${String(rank).padStart(4, '0')}`;
export const cityName = (rank: number) => `city-${String(rank).padStart(2, '0')}`;
export const stateName = (rank: number) => `state-${String(rank).padStart(2, '0')}`;
/** Every city lies in one state (city r in state ((r - 1) mod 20) + 1), so a city and another state never overlap. */
export const stateOfCity = (cityRank: number) => ((cityRank - 1) % 20) + 1;

/**
 * Seeds a pool of agents straight into Redis through the service's own store and indexer code (no HTTP,
 * no password hashing): 3–8 Zipf-drawn interests each, Zipf cities over 50 (each in one of 20 states),
 * ages 18–69, creation times one second apart. Returns the ids, oldest first.
 */
export async function seedZipfPool(app: Application, { agents, interests, random, log = () => {} }: ZipfPoolOptions): Promise<number[]> {
  const interestOf = ranks(interests, random);
  const cityOf = ranks(50, random);
  const indexer = new DiscoveryIndexer({ schedule: async () => {} }, createLogger('warn'));
  const ids: number[] = [];
  const now = Date.now();
  for (let done = 0; done < agents;) {
    const batch = Math.min(1_000, agents - done);
    const created = await Promise.all(
      Array.from({ length: batch }, async (_, i) => {
        const n = done + i;
        const wanted = 3 + Math.floor(random() * 6);
        const mine = new Set<string>();
        while (mine.size < wanted) mine.add(interestName(interestOf()));
        const city = cityOf();
        const user = await app.users.create(
          {
            pool: 'agent',
            email: `seeded-${n}@bench.example`,
            passwordHash: 'seeded',
            displayName: `Seeded ${n}`,
            birthdate: birthdateForAge(18 + Math.floor(random() * 52), random),
            gender: GENDERS[Math.floor(random() * GENDERS.length)]!,
            bio: 'Seeded by the bench.',
            interests: [...mine],
            city: cityName(city),
            state: stateName(stateOfCity(city)),
            themeId: 1 + Math.floor(random() * 6),
          },
          new Date(now - (agents - n) * 1_000),
        );
        await indexer.profileSaved(user!);
        return user!.id;
      }),
    );
    ids.push(...created);
    done += batch;
    if (done % 20_000 === 0 || done === agents) log(`  ${done} seeded`);
  }
  return ids;
}

function ranks(n: number, random: () => number): () => number {
  const sample = zipf(n, 1);
  return () => sample(random) + 1;
}

function birthdateForAge(age: number, random: () => number): string {
  const now = new Date();
  const born = new Date(Date.UTC(now.getUTCFullYear() - age - 1, now.getUTCMonth(), now.getUTCDate()) + Math.floor(random() * 364) * 86_400_000 + 86_400_000);
  return born.toISOString().slice(0, 10);
}
